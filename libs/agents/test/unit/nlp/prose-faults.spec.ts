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
    // Two names joined by a partnership, the line under a report's title (0166); a statement with the phrase stays.
    expect(readerSentence("Varen Lake Trust, in cooperation with the Varenby Anglers' Club.")).toBeNull();
    expect(readerSentence('Eskerford University, on behalf of the Independent Review Panel.')).toBeNull();
    expect(readerSentence("The survey was carried out in cooperation with the Varenby Anglers' Club.")).toBe(
      "The survey was carried out in cooperation with the Varenby Anglers' Club.",
    );
    expect(readerSentence('This timeline collects the main events in the story of the lake.')).toBeNull();
    expect(readerSentence('Our task is to review all available evidence on the decline of Lake Varen.')).toBeNull();
    // Its own source does not stand behind a flagged sentence: no finding, with or without the marker shown (0165).
    expect(readerSentence('Rainfall was 12% below average.[citation needed]')).toBeNull();
    expect(readerSentence('The causes of the decline are disputed.[by whom?]')).toBeNull();
    expect(readerSentence('Irrigation explains 60% of the deficit.[dubious – discuss] Rainfall fell.')).toBeNull();
    expect(readerSentence('Rainfall was 12% below average.[4]')).toBe('Rainfall was 12% below average.');
    // An HTML tag the source wrote as code, its backquotes gone with the Markdown (Node's vm docs, decision 0108).
    expect(
      readerSentence("The method can emulate a window's global object, then run all <script> tags together within that context."),
    ).toBeNull();
    expect(readerSentence('This form resets the current branch head to <commit> and possibly updates the index.')).not.toBeNull();
    // A command's synopsis is program text, though its "…]" reads as a closed sentence (git-manual, decision 0108).
    expect(readerSentence('git fsck [--tags] [--root] [--unreachable] [--cache] [--[no-]full] [<object>…]')).toBeNull();
    expect(readerSentence('git commit takes options such as [-a] in its synopsis, which mark them optional.')).not.toBeNull();
  });

  it('shows the last sentence of a bracketed passage without the bracket it closes; other cut brackets are none (decision 0132)', () => {
    expect(readerSentence('If you want that, use git rebase instead).')).toBe('If you want that, use git rebase instead.');
    expect(readerSentence('The result is affected by the __bool__ and __len__ methods.)')).toBe(
      'The result is affected by the __bool__ and __len__ methods.',
    );
    expect(readerSentence('RuntimeError), this exception class is raised when a worker dies.')).toBeNull();
    // An ellipsis is no doubled full stop: a running header cut inside its bracket stays out (lake-varen q10; 0165).
    expect(readerSentence('Brennmoor Dam: Summary of Operating Rules (Licence BH-07,...')).toBeNull();
    expect(
      readerSentence('Brennmoor Hydro Ltd. Public summary prepared for the Independent Review Panel on Lake Varen, 10 February 2025.'),
    ).toBeNull();
    expect(readerSentence('(the default) and timeout is None, block if necessary until a slot is free.')).toBeNull();
    expect(readerSentence('By default, the server binds itself to all interfaces.')).toBe(
      'By default, the server binds itself to all interfaces.',
    );
  });
});
