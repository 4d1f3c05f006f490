/*
 * A sentence that is part of a longer quotation — it closes a quote an earlier sentence opened, or opens one a later
 * sentence closes — is somebody's words without the words that say whose: «Today we can say that its fish stocks are
 * back where they were before the decline began."» reads, quoted alone in a report, as the report's own finding. The
 * offline engine selects such a sentence only when it names its speaker ("said", "according to" …).
 */

// Double quotation marks, straight or typographic: a sentence holding an odd number of them is cut from a longer quote.
const QUOTE_MARKS = /["“”„«»]/g;
const SPEAKER =
  /\b(?:said|says|told|tells|added|adds|wrote|writes|stated|states|explained|explains|argued|argues|claimed|claims|according to)\b/i;

/** Whether a sentence is a piece of a longer quotation that does not say who is speaking. */
export function isUnattributedQuote(sentence: string): boolean {
  const marks = sentence.match(QUOTE_MARKS)?.length ?? 0;
  return marks % 2 === 1 && !SPEAKER.test(sentence);
}
