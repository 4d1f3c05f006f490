import { readFileSync } from 'node:fs';
import path from 'node:path';
import { create, type FontkitFont } from 'fontkit';

/**
 * The PDF's fonts: DejaVu Sans from the `dejavu-fonts-ttf` npm package, embedded (subset) in every PDF.
 * The 14 standard PDF fonts pdfkit bundles only encode WinAnsi (Latin-1 and a few extras), so a question or
 * excerpt in Greek, Cyrillic or with arrows and math signs would come out garbled; DejaVu covers those
 * scripts and is installed with the other dependencies, so rendering needs no network and no system fonts.
 */
export const PDF_FONTS = {
  regular: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
} as const;

export type PdfFont = keyof typeof PDF_FONTS;

const parsed = new Map<PdfFont, FontkitFont>();

/**
 * The font, parsed once per process. Parsing a 700 KB TrueType file is most of the time of a small report
 * (the fixture report: 1.2 s with a parse per render, 0.23 s without), and pdfkit accepts a parsed font object in place of a path; each
 * document still embeds its own subset.
 */
export function pdfFont(font: PdfFont): FontkitFont {
  let f = parsed.get(font);
  if (!f) {
    const dir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    f = create(readFileSync(path.join(dir, PDF_FONTS[font])));
    parsed.set(font, f);
  }
  return f;
}
