// fontkit ships no types; pdfkit takes the parsed font object it returns (anything with `layout`).
declare module 'fontkit' {
  /** A shaped run of text: fontkit's GlyphRun, as far as pdfkit and libs/render use it. */
  export interface GlyphRun {
    glyphs: { id: number; advanceWidth: number; codePoints: number[] }[];
    positions: object[];
  }
  export interface FontkitFont {
    layout(text: string, ...rest: unknown[]): GlyphRun;
    readonly postscriptName: string;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): FontkitFont;
}
