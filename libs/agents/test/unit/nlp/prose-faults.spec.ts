import { readerSentence, withoutCitationMarkers } from '../../../src/offline/nlp/prose-faults';

describe('the sentence a reader sees (decision 0046)', () => {
  it.each([
    ['The causes of the decline are disputed.[citation needed]', 'The causes of the decline are disputed.'],
    [
      'The annual mean level fell by 4.2 m; the decline began in 2015[5].',
      'The annual mean level fell by 4.2 m; the decline began in 2015.',
    ],
    ['The panel met twice.[3][4] Its report followed.', 'The panel met twice. Its report followed.'],
    ['Use items[0] to read the first element.', 'Use items[0] to read the first element.'],
  ])('strips citation markers from the shown sentence: %s', (raw, shown) => expect(withoutCitationMarkers(raw)).toBe(shown));

  it('is null for boilerplate and fragments, the sentence otherwise', () => {
    expect(readerSentence('Three explanations are commonly given:')).toBeNull();
    expect(readerSentence('Kessmark Regional Water Authority, Hydrometry Section.')).toBeNull();
    expect(readerSentence('This timeline collects the main events in the story of the lake.')).toBeNull();
    expect(readerSentence('Our task is to review all available evidence on the decline of Lake Varen.')).toBeNull();
    expect(readerSentence('Rainfall was 12% below average.[citation needed]')).toBe('Rainfall was 12% below average.');
    // An HTML tag the source wrote as code, its backquotes gone with the Markdown (Node's vm docs, decision 0108).
    expect(
      readerSentence("The method can emulate a window's global object, then run all <script> tags together within that context."),
    ).toBeNull();
    expect(readerSentence('This form resets the current branch head to <commit> and possibly updates the index.')).not.toBeNull();
    // A command's synopsis is program text, though its "…]" reads as a closed sentence (git-manual, decision 0108).
    expect(readerSentence('git fsck [--tags] [--root] [--unreachable] [--cache] [--[no-]full] [<object>…]')).toBeNull();
    expect(readerSentence('git commit takes options such as [-a] in its synopsis, which mark them optional.')).not.toBeNull();
  });
});
