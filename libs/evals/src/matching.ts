/*
 * The matching rule of the eval format (docs/decisions/0021): normalization N, then phrase matching at word
 * boundaries. Deliberately literal — no stemming, no synonyms — so a set's author can predict what counts, and a
 * drift test can prove every key point is stated by its source in the words the set expects.
 */

/** N: lower-case, Unicode NFKC, every run of characters that are not letters or digits becomes one space, trimmed. */
export function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The parts of a phrasing: "collating sequence + locale" is two parts that must occur in the same sentence. */
export function phrasingParts(phrasing: string): string[] {
  return phrasing.split(' + ').map(normalize);
}

/** N(haystack) contains N(part) at word boundaries; both already normalized. An empty part matches nothing. */
export function containsPart(normalizedHaystack: string, normalizedPart: string): boolean {
  if (normalizedPart.length === 0) return false;
  return ` ${normalizedHaystack} `.includes(` ${normalizedPart} `);
}

/** A phrasing matches a text (a report sentence, or a whole source file) when each of its parts occurs in it. */
export function phrasingMatches(phrasing: string, normalizedText: string): boolean {
  return phrasingParts(phrasing).every((part) => containsPart(normalizedText, part));
}

/** The first phrasing (of alternatives) that matches one of the texts, with that text's index; null when none does. */
export function firstMatch(phrasings: readonly string[], normalizedTexts: readonly string[]): { phrasing: string; index: number } | null {
  for (let index = 0; index < normalizedTexts.length; index++) {
    for (const phrasing of phrasings) {
      if (phrasingMatches(phrasing, normalizedTexts[index]!)) return { phrasing, index };
    }
  }
  return null;
}
