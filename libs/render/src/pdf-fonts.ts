import { readFileSync } from 'node:fs';
import path from 'node:path';
import { create, type FontkitFont, type GlyphRun } from 'fontkit';

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

/**
 * Shaped words kept per font. pdfkit lays text out word by word and keeps the words only for one document; the
 * reports of a process share most of their words (the corpus's, the headings', the labels'), and shaping was the
 * largest part of a PDF (decision 0147). A word takes a few hundred bytes: at most this many, the oldest dropped first.
 */
export const KEPT_WORDS = 20_000;

const parsed = new Map<PdfFont, FontkitFont>();

/**
 * The font, parsed once per process, its word layouts kept across documents. Parsing a 700 KB TrueType file is
 * most of the time of a small report (the fixture report: 1.2 s with a parse per render, 0.23 s without), and pdfkit
 * accepts a parsed font object in place of a path; each document still embeds its own subset.
 */
export function pdfFont(font: PdfFont): FontkitFont {
  let f = parsed.get(font);
  if (!f) {
    const dir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    f = keepWordLayouts(create(readFileSync(path.join(dir, PDF_FONTS[font]))));
    parsed.set(font, f);
  }
  return f;
}

/**
 * `font.layout` answering a word it shaped before from what it kept. Shaping is a function of the font and the text
 * alone (pdfkit passes no features for text), so a kept run is the run fontkit would make. pdfkit scales a run's
 * positions in place (`EmbeddedFont.layoutRun`), so each caller gets positions of its own; the glyphs are fontkit's
 * shared glyph objects, which pdfkit only reads. A call with features, script or direction is shaped as before.
 */
function keepWordLayouts(font: FontkitFont): FontkitFont {
  const kept = new Map<string, GlyphRun>();
  const shape = (text: string, ...rest: unknown[]): GlyphRun =>
    (Object.getPrototypeOf(font) as FontkitFont).layout.call(font, text, ...rest);
  font.layout = (text: string, ...rest: unknown[]): GlyphRun => {
    if (rest.some((arg) => arg !== undefined)) return shape(text, ...rest);
    let run = kept.get(text);
    if (!run) {
      run = shape(text);
      if (kept.size >= KEPT_WORDS) kept.delete(kept.keys().next().value!);
      kept.set(text, run);
    }
    return ownPositions(run);
  };
  return font;
}

/** A copy of the run (fontkit's class: `advanceWidth` is a getter over the positions) with positions of its own. */
function ownPositions(run: GlyphRun): GlyphRun {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(run) as object) as GlyphRun, run);
  // fontkit's positions are four numbers and no methods; pdfkit reads and scales those numbers.
  copy.positions = run.positions.map((p) => ({ ...p }));
  return copy;
}
