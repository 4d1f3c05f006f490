import { isUnattributedQuote } from '../../../src/offline/nlp/quotation';
import { evidenceCurator } from '../../../src/roles';

describe('isUnattributedQuote', () => {
  it('finds the pieces of a longer quotation that do not say who speaks', () => {
    for (const piece of [
      'Today we can say that its fish stocks are back where they were before the decline began."',
      '“Lake Varen has been through a difficult decade.',
      'The lake is full again and the fish are back.”',
    ])
      expect({ piece, quote: isUnattributedQuote(piece) }).toEqual({ piece, quote: true });
  });

  it('leaves whole quotations, attributed pieces and sentences without quotes alone', () => {
    for (const sentence of [
      '"This is very good news for anglers," said Dr. Petra Lindell, Director of the KRWA.',
      'The manual calls such a commit a "fixup!" commit, and git log -G"frotz" shows it.',
      'According to the director, "the stocks are back.',
      'The water level fell by 4.2 metres between 2015 and 2024.',
      "Don't use the 'ours' strategy here.",
    ])
      expect({ sentence, quote: isUnattributedQuote(sentence) }).toEqual({ sentence, quote: false });
  });

  it('is never selected as evidence by the offline curator', () => {
    const text =
      '"This is very good news for anglers," said the director. "The lake has been through a difficult decade. Today we can say that its fish stocks are back where they were before the decline began." The fish survey of 2024 found the fish stocks well below their levels before the decline.';
    const { fragments } = evidenceCurator.offline({
      question: 'Are the fish stocks back where they were before the decline?',
      questions: [],
      source: { id: 's1', title: 'Fish', text },
      maxFragments: 10,
    });
    const excerpts = fragments.map((f) => f.excerpt);
    expect(excerpts.some((e) => e.includes('fish survey of 2024'))).toBe(true);
    expect(excerpts.some((e) => e.includes('Today we can say'))).toBe(false);
  });
});
