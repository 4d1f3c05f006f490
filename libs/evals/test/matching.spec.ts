import { containsPart, firstMatch, normalize, phrasingMatches, phrasingParts } from '../src';

describe('normalization N', () => {
  it('lower-cases, applies NFKC and turns every run of non-letters/digits into one space, trimmed', () => {
    expect(normalize('  The Sort — ORDER,  (by locale)! ')).toBe('the sort order by locale');
    // NFKC: the "ﬁ" ligature is "fi", full-width digits are digits, a superscript two is a 2.
    expect(normalize('ﬁle １２３ m²')).toBe('file 123 m2');
    expect(normalize('Lake Varen’s level')).toBe('lake varen s level');
    expect(normalize('Ørsa ferry — São Paulo')).toBe('ørsa ferry são paulo');
    expect(normalize('...')).toBe('');
  });
});

describe('phrase matching', () => {
  it('matches at word boundaries only', () => {
    expect(containsPart(normalize('sort uses the locale'), 'locale')).toBe(true);
    expect(containsPart(normalize('sort uses the locales'), 'locale')).toBe(false);
    expect(containsPart(normalize('a resort by the lake'), 'sort')).toBe(false);
    expect(containsPart(normalize('2.1 metres'), normalize('2.1 metres'))).toBe(true);
    expect(containsPart(normalize('12.1 metres'), normalize('2.1 metres'))).toBe(false);
  });

  it('an empty part matches nothing (a phrasing of punctuation cannot make every sentence a match)', () => {
    expect(containsPart('anything at all', '')).toBe(false);
    expect(phrasingMatches('--', 'anything at all')).toBe(false);
  });

  it('" + " makes parts that must all occur in the same text, in any order', () => {
    expect(phrasingParts('Collating sequence + LOCALE')).toEqual(['collating sequence', 'locale']);
    expect(phrasingMatches('collating sequence + locale', normalize('The locale sets the collating sequence.'))).toBe(true);
    expect(phrasingMatches('collating sequence + locale', normalize('It uses the collating sequence.'))).toBe(false);
    // A plus sign without spaces around it is part of the phrase, not a separator (N turns it into a space).
    expect(phrasingParts('C++')).toEqual(['c']);
  });

  it('phrasings are alternatives; the first sentence that any of them matches is the one reported', () => {
    const sentences = ['Nothing here.', 'The dam released less water.', 'Irrigation took more.'].map(normalize);
    expect(firstMatch(['irrigation + more', 'released less'], sentences)).toEqual({ phrasing: 'released less', index: 1 });
    expect(firstMatch(['climate'], sentences)).toBeNull();
  });
});
