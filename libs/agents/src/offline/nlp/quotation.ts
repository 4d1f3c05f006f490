/*
 * Somebody's words quoted without the words that say whose read, in a report, as the report's own finding. A sentence
 * that is part of a longer quotation — it closes a quote an earlier sentence opened, or opens one a later sentence
 * closes — or that is a whole quotation on its own ("“Because the lake was above the weir crest …”", the speaker named
 * in the sentence before: "…,” said Prof. Tomas Vedder.") is quoted only with its speaker (decision 0105): the speaker
 * found in the sentence before or after it ("…, said X", "X said"), as 0102 quotes a transcript's speaker
 * ('Prof. Tomas Vedder said: “Because …”'); with none, it is left out.
 */

// Double quotation marks, straight or typographic: a sentence holding an odd number of them is cut from a longer quote.
const QUOTE_MARKS = /["“”„«»]/g;
const SPEAKER =
  /\b(?:said|says|told|tells|added|adds|wrote|writes|stated|states|explained|explains|argued|argues|claimed|claims|according to)\b/i;
const VERB = String.raw`(?:said|says|added|adds|explained|explains|argued|argues|told\s+[\p{Ll}\s]{1,30}|continued|continues|noted|notes|warned|warns)`;
const TITLE = String.raw`(?:(?:Dr|Prof|Mr|Mrs|Ms|Sir|Dame|Professor|Doctor)\.?\s+)`;
const NAME = String.raw`${TITLE}?\p{Lu}[\p{L}'’-]+(?:\s+(?:\p{Lu}\.|\p{Lu}[\p{L}'’-]+)){0,3}`;
/** "…,” said Prof. Tomas Vedder, a co-author." */
const VERB_NAME = new RegExp(String.raw`[,”"]\s*${VERB}\s+(${NAME})`, 'u');
/** "Dr. Ilse Marren said: …", "…,” Ilse Marren said." */
const NAME_VERB = new RegExp(String.raw`(?:^|[,”"]\s*)(${NAME})\s+${VERB}\b`, 'u');

/** Whether a sentence is a piece of a longer quotation that does not say who is speaking. */
export function isUnattributedQuote(sentence: string): boolean {
  const marks = sentence.match(QUOTE_MARKS)?.length ?? 0;
  if (SPEAKER.test(sentence)) return false;
  return marks % 2 === 1 || isWholeQuote(sentence);
}

/** A sentence that is all quotation: it opens and closes with quotation marks and holds only those two. */
export function isWholeQuote(sentence: string): boolean {
  const s = sentence.trim();
  return /^["“„«]/.test(s) && /["”»][)\]]*$/.test(s) && (s.match(QUOTE_MARKS)?.length ?? 0) === 2 && !SPEAKER.test(s);
}

/** The speaker a sentence names for a quotation ("…,” said Prof. Tomas Vedder, a co-author." → "Prof. Tomas Vedder"), or null. */
export function speakerNamed(sentence: string | null | undefined): string | null {
  if (!sentence) return null;
  const m = VERB_NAME.exec(sentence) ?? NAME_VERB.exec(sentence.trim());
  if (!m) return null;
  const name = m[1]!.trim().replace(/[,.]$/, '');
  // A pronoun or a determiner is no name ("The", "It said").
  return /^(?:The|A|An|It|He|She|They|We|I|This|That)$/.test(name.split(/\s+/)[0]!) ? null : name;
}

/**
 * A whole quotation as a report shows it: its speaker's words, attributed ('Prof. Tomas Vedder said: “Because …”'),
 * the speaker taken from the sentence before it or, failing that, the one after; null when neither names one. A
 * sentence that is not a whole quotation is returned as it is.
 */
export function quotedWithSpeaker(sentence: string, before?: string | null, after?: string | null): string | null {
  if (!isWholeQuote(sentence)) return sentence;
  const speaker = speakerNamed(before) ?? speakerNamed(after);
  if (speaker === null) return null;
  const words = sentence
    .trim()
    .replace(/^["“„«]\s*/, '')
    .replace(/\s*["”»]([)\]]*)$/, '$1');
  return `${speaker} said: “${words}”`;
}
