import { keptAnalyses, statesStatement } from '../../src';

describe('keptAnalyses: a pure analysis of a text, kept for the texts analysed last (decision 0157)', () => {
  it('analyses each text once while it is kept, and gives every caller the same answer', () => {
    const seen: string[] = [];
    const length = keptAnalyses((text: string) => {
      seen.push(text);
      return { chars: text.length };
    });
    const first = length('the lake fell');
    expect(length('the lake fell')).toBe(first);
    expect(length('by 4.2 metres')).toEqual({ chars: 13 });
    expect(seen).toEqual(['the lake fell', 'by 4.2 metres']);
  });

  it('keeps at most `kept` texts: the oldest goes first and is analysed again when asked for', () => {
    const seen: string[] = [];
    const upper = keptAnalyses((text: string) => {
      seen.push(text);
      return text.toUpperCase();
    }, 2);
    upper('a');
    upper('b');
    upper('c'); // 'a' goes
    upper('b');
    upper('a');
    expect(seen).toEqual(['a', 'b', 'c', 'a']);
  });

  it('statesStatement answers as before when it meets the same texts again', () => {
    const sentence = 'The level fell by 6.1 metres between 2015 and 2024, from a spring maximum of 214 m.';
    const statement = 'The level fell by 6.1 metres between 2015 and 2024.';
    const other = 'The level fell by 4.2 metres between 2015 and 2024.';
    for (let i = 0; i < 3; i++) {
      expect(statesStatement(sentence, statement)).toBe(true);
      expect(statesStatement(sentence, other)).toBe(false);
      expect(statesStatement(statement, sentence)).toBe(false);
    }
  });
});
