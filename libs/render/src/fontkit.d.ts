// fontkit ships no types; pdfkit takes the parsed font object it returns (anything with `layout`).
declare module 'fontkit' {
  export interface FontkitFont {
    layout(text: string): unknown;
    readonly postscriptName: string;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): FontkitFont;
}
