import { ExcerptMismatchError, ExcerptRangeError } from '../errors';

/**
 * Offsets are JavaScript string indices (UTF-16 code units) into the snapshot text, `end` exclusive —
 * not bytes and not code points (Postgres `substring` counts code points: do not slice there).
 */
function validRange(text: string, start: number, end: number): boolean {
  return Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end >= start && end <= text.length;
}

/** Throws ExcerptRangeError unless [start, end) is a range of `text`. */
export function assertRange(text: string, start: number, end: number): void {
  if (!validRange(text, start, end)) {
    throw new ExcerptRangeError(`invalid excerpt range [${start}, ${end}) for a text of ${text.length} characters`, {
      details: { start, end, length: text.length },
    });
  }
}

/** The text at [start, end) of a snapshot text. */
export function sliceText(text: string, start: number, end: number): string {
  assertRange(text, start, end);
  return text.slice(start, end);
}

/**
 * Throws ExcerptMismatchError unless `excerpt` is exactly the snapshot text at [start, end) — an offset
 * pair outside the text is a mismatch too, since no citation can point there.
 */
export function assertExcerpt(snapshotText: string, excerpt: string, start: number, end: number): void {
  if (!validRange(snapshotText, start, end)) {
    throw new ExcerptMismatchError(
      `the excerpt range [${start}, ${end}) is outside the snapshot text (${snapshotText.length} characters)`,
      {
        details: { start, end, length: snapshotText.length },
      },
    );
  }
  const actual = snapshotText.slice(start, end);
  if (actual !== excerpt) {
    throw new ExcerptMismatchError(`the excerpt is not the snapshot text at [${start}, ${end})`, {
      details: { start, end, expected: excerpt.slice(0, 200), actual: actual.slice(0, 200) },
    });
  }
}
