import { isUnattributedQuote, quotedWithSpeaker } from '../../../src/offline/nlp/quotation';
import { evidenceCurator, sectionWriter } from '../../../src/roles';

/*
 * A whole quotation names its speaker or is left out (decision 0105): the news release's “Because the lake was above the
 * Lodegate weir crest …” stood in the demo's body as the report's own finding; its speaker is in the sentence before.
 */
const BEFORE =
  '“The annual total did not change, but summer inflow to the lake fell by roughly a fifth,” said Prof. Tomas Vedder, a co-author.';
const QUOTE =
  '“Because the lake was above the Lodegate weir crest in the winters of 2016 and 2017, part of the extra winter water was simply lost downstream.”';

describe('a whole quotation', () => {
  it('is unattributed on its own, and quoted with the speaker the sentence before or after names', () => {
    expect(isUnattributedQuote(QUOTE)).toBe(true);
    expect(quotedWithSpeaker(QUOTE, BEFORE)).toBe(
      'Prof. Tomas Vedder said: “Because the lake was above the Lodegate weir crest in the winters of 2016 and 2017, part of the extra winter water was simply lost downstream.”',
    );
    expect(quotedWithSpeaker('“The stocks are back.”', 'The survey ended.', 'Petra Lindell said so on Monday.')).toBe(
      'Petra Lindell said: “The stocks are back.”',
    );
    expect(quotedWithSpeaker(QUOTE, 'New this year is an analysis of the dam.', undefined)).toBeNull();
    expect(quotedWithSpeaker('The lake fell by 4.2 metres.', undefined, undefined)).toBe('The lake fell by 4.2 metres.');
  });

  it('is evidence with the sentence naming its speaker, or not at all (offline curator)', () => {
    const question = 'Why was the extra winter water lost downstream at the Lodegate weir crest?';
    const excerpts = (text: string) =>
      evidenceCurator
        .offline({ question, questions: [], source: { id: 's', title: 'Release', text }, maxFragments: 10 })
        .fragments.map((f) => f.excerpt);
    expect(
      excerpts(`New this year is an analysis. ${BEFORE} ${QUOTE}`).some((e) => e.includes(QUOTE) && e.includes('said Prof. Tomas Vedder')),
    ).toBe(true);
    expect(excerpts(`New this year is an analysis of the winter water.\n\n${QUOTE}`).some((e) => e.includes('Lodegate'))).toBe(false);
  });

  it('reaches the report attributed, never bare (offline section writer)', () => {
    const out = sectionWriter.offline({
      section: { title: 'Causes', purpose: 'Answers: what caused the decline?' },
      claims: [{ id: 'c1', statement: QUOTE, evidenceIds: ['e1'] }],
      evidence: [{ id: 'e1', excerpt: `${BEFORE} ${QUOTE}` }],
    } as never);
    const texts = out.paragraphs.flatMap((p) => p.sentences.map((s) => s.text));
    expect(texts).toContain(
      'Prof. Tomas Vedder said: “Because the lake was above the Lodegate weir crest in the winters of 2016 and 2017, part of the extra winter water was simply lost downstream.”',
    );
    expect(texts).not.toContain(QUOTE);
    const bare = sectionWriter.offline({
      section: { title: 'Causes', purpose: 'Answers: what caused the decline?' },
      claims: [{ id: 'c1', statement: QUOTE, evidenceIds: ['e1'] }],
      evidence: [{ id: 'e1', excerpt: QUOTE }],
    } as never);
    expect(bare.paragraphs.flatMap((p) => p.sentences)).toEqual([]);
  });
});
