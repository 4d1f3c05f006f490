import { listMarkerLength, splitExcerpt, splitSentences, splitUnits, type Span } from '../../../src/offline/nlp/sentences';
import { codeIntroduced } from '../../../src/offline/nlp/lists';

function texts(input: string): string[] {
  return splitSentences(input).map((s) => s.text);
}

function expectExactOffsets(input: string, spans: readonly Span[]): void {
  for (const s of spans) {
    expect(input.slice(s.start, s.end)).toBe(s.text);
    expect(s.text).toBe(s.text.trim());
    expect(s.text.length).toBeGreaterThan(0);
  }
  for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
}

describe('splitSentences', () => {
  it('splits plain prose and keeps exact offsets', () => {
    const input = '  The bridge opened in 1937.  It is 2.7 km long!\nIs it red?   Yes. ';
    const spans = splitSentences(input);
    expect(spans.map((s) => s.text)).toEqual(['The bridge opened in 1937.', 'It is 2.7 km long!', 'Is it red?', 'Yes.']);
    expect(spans[0]).toEqual({ text: 'The bridge opened in 1937.', start: 2, end: 28 });
    expectExactOffsets(input, spans);
  });

  it('returns nothing for empty or blank text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences(' \n\t \n')).toEqual([]);
  });

  it('keeps a text without terminal punctuation as one unit', () => {
    expect(texts('just some words without an end')).toEqual(['just some words without an end']);
  });

  it.each([
    ['Dr. Smith met Mr. Jones and Mrs. Brown. They talked.', ['Dr. Smith met Mr. Jones and Mrs. Brown.', 'They talked.']],
    ['Prof. Lee lives on St. Mark Street. She is busy.', ['Prof. Lee lives on St. Mark Street.', 'She is busy.']],
    ['Apples vs. oranges, e.g. fruit, i.e. food. Next one.', ['Apples vs. oranges, e.g. fruit, i.e. food.', 'Next one.']],
    [
      'It weighs approx. 40 kg. See Fig. 3 and No. 7 for details. Done.',
      ['It weighs approx. 40 kg.', 'See Fig. 3 and No. 7 for details.', 'Done.'],
    ],
    ['It opened on Jan. 5 and closed on Dec. 24. Then it reopened.', ['It opened on Jan. 5 and closed on Dec. 24.', 'Then it reopened.']],
    ['Sales in the U.S. and the U.K. Government rose. The end.', ['Sales in the U.S. and the U.K. Government rose.', 'The end.']],
    ['It moved to the U.S. The move was costly.', ['It moved to the U.S.', 'The move was costly.']],
    ['Acme Inc. reported a loss. Smith & Co. Ltd. did too.', ['Acme Inc. reported a loss.', 'Smith & Co. Ltd. did too.']],
    ['Acme Inc. The company grew.', ['Acme Inc.', 'The company grew.']],
    ['The report by J. Smith and A. B. Jones was late. It was long.', ['The report by J. Smith and A. B. Jones was late.', 'It was long.']],
    ['Apples, pears, etc. The list goes on.', ['Apples, pears, etc.', 'The list goes on.']],
    // Found by the Intl.Segmenter comparison (docs/decisions/0032) in the corpus's field notes.
    [
      'The bank was lined with slabs (repairs, c. 2019 per keeper). It held.',
      ['The bank was lined with slabs (repairs, c. 2019 per keeper).', 'It held.'],
    ],
    // A numbered code after "no." (velora-recall's test report; decision 0169); "no." before a word still ends one.
    [
      'Ostvik is an accredited laboratory (accreditation no. NT-118). This report describes tests. The answer was no. The end.',
      ['Ostvik is an accredited laboratory (accreditation no. NT-118).', 'This report describes tests.', 'The answer was no.', 'The end.'],
    ],
  ])('does not split at abbreviations: %s', (input, expected) => {
    expect(texts(input)).toEqual(expected);
  });

  it.each([
    ['The rate is 3.5 percent. Costs were 1,200.75 dollars.', ['The rate is 3.5 percent.', 'Costs were 1,200.75 dollars.']],
    ['Version v2.1 shipped. It works.', ['Version v2.1 shipped.', 'It works.']],
    ['It grew 5%. 2020 was a good year.', ['It grew 5%.', '2020 was a good year.']],
  ])('keeps numbers and decimals whole: %s', (input, expected) => {
    expect(texts(input)).toEqual(expected);
  });

  it('handles ellipses', () => {
    expect(texts('He paused... then continued. Wait… The end.')).toEqual(['He paused... then continued.', 'Wait…', 'The end.']);
  });

  it('keeps closing quotes and parentheses with their sentence', () => {
    const input = 'He said "Stop." Then he left. (This was odd.) She wrote ‘done.’ Later she slept.';
    expect(texts(input)).toEqual(['He said "Stop."', 'Then he left.', '(This was odd.)', 'She wrote ‘done.’', 'Later she slept.']);
  });

  it('does not split before a lower-case word', () => {
    expect(texts('Is it? perhaps not. Yes.')).toEqual(['Is it? perhaps not.', 'Yes.']);
  });

  it('does not split URLs or e-mail addresses', () => {
    const input = 'Visit https://example.com/a.b?x=1&y=2.5 or write to jane.doe@example.org. Then wait.';
    expect(texts(input)).toEqual(['Visit https://example.com/a.b?x=1&y=2.5 or write to jane.doe@example.org.', 'Then wait.']);
  });

  it('treats a blank line as a boundary even without punctuation', () => {
    expect(texts('first part without stop\n\nsecond part')).toEqual(['first part without stop', 'second part']);
  });

  it('joins a hard-wrapped sentence across lines', () => {
    const input = 'The bridge was built in 1932 and\nrenovated in 1990 by the city. It\nis red.';
    expect(texts(input)).toEqual(['The bridge was built in 1932 and\nrenovated in 1990 by the city.', 'It\nis red.']);
  });

  it('makes list items units of their own', () => {
    const input =
      'Findings:\n- first item here\n* second item\n• third item\n+ plus item (reStructuredText)\n1. numbered one\n2) numbered two\na) lettered item\nB. upper lettered';
    expect(texts(input)).toEqual([
      'Findings:',
      '- first item here',
      '* second item',
      '• third item',
      '+ plus item (reStructuredText)',
      '1. numbered one',
      '2) numbered two',
      'a) lettered item',
      'B. upper lettered',
    ]);
    expect(
      splitUnits(input)
        .slice(1)
        .every((u) => u.kind === 'list-item'),
    ).toBe(true);
  });

  it('continues a list item on an indented line', () => {
    expect(texts('- an item that\n  continues here\n- next')).toEqual(['- an item that\n  continues here', '- next']);
  });

  it("continues a list item on a wrapped line of a PDF's text: lower case, after a line ending mid-sentence (0166)", () => {
    const pdf =
      '3. Restocking should continue until then, with marked fish so that stocked and wild\nfish can be told apart.\n4. Lake level management should give priority to the spawning period.';
    expect(texts(pdf)).toEqual([
      '3. Restocking should continue until then, with marked fish so that stocked and wild\nfish can be told apart.',
      '4. Lake level management should give priority to the spawning period.',
    ]);
    // After an item that ends its sentence, a line is its own.
    expect(texts('1. The survey ended.\nfish were counted again in May.')).toEqual([
      '1. The survey ended.',
      'fish were counted again in May.',
    ]);
  });

  it('makes a paragraph of program text one code unit, and a comment line in it no heading (decision 0108)', () => {
    const input = [
      'Read the sensors with this command:',
      '',
      '$ bridgectl read --sensor all',
      '$ bridgectl export --out ./data',
      '',
      '>>> print(parser["hashes"]["shebang"])',
      '#!/usr/bin/env python',
      '# -*- coding: utf-8 -*-',
      '>>> print(parser["hashes"]["extensions"])',
      '',
      '    # -*- coding: utf-8 -*-',
      '',
      '# Usage',
      '',
      'The tool reads every sensor.',
    ].join('\n');
    const units = splitUnits(input);
    expectExactOffsets(input, units);
    expect(units.map((u) => u.kind).slice(0, 2)).toEqual(['sentence', 'code']);
    expect(units[units.length - 1]).toMatchObject({ kind: 'sentence', text: 'The tool reads every sensor.' });
    expect(units[1]!.text).toBe('$ bridgectl read --sensor all\n$ bridgectl export --out ./data');
    expect(units.filter((u) => u.kind === 'heading').map((u) => u.text)).toEqual(['# Usage']);
  });

  it('reads no heading into a wrapped line whose sentence ends two spaces before a lower-case parameter name (decision 0149)', () => {
    const text = [
      'FTP.retrbinary(cmd, callback)',
      '',
      '   Retrieve a file in binary transfer mode.  cmd should be an appropriate',
      "   RETR command: 'RETR filename'. The callback is called for each block.",
    ].join('\n');
    const units = splitUnits(text);
    expect(units.filter((u) => u.kind === 'heading').map((u) => u.text)).toEqual(['FTP.retrbinary(cmd, callback)']);
    expect(units[1]!.text).toMatch(
      /^Retrieve a file in binary transfer mode\. {2}cmd should be an appropriate\s+RETR command: 'RETR filename'\.$/,
    );
  });

  it('makes markdown headings and short title lines units of their own', () => {
    const input =
      '# The Golden Gate\nBackground\nThe bridge opened in 1937. It is red.\n\nHistory of the Bridge\nConstruction began in 1933.';
    const units = splitUnits(input);
    expect(units.map((u) => [u.kind, u.text])).toEqual([
      ['heading', '# The Golden Gate'],
      ['heading', 'Background'],
      ['sentence', 'The bridge opened in 1937.'],
      ['sentence', 'It is red.'],
      ['heading', 'History of the Bridge'],
      ['sentence', 'Construction began in 1933.'],
    ]);
  });

  it('does not take a wrapped line for a heading', () => {
    const input = 'Engineers measured the span of the\nGolden Gate in 1937.';
    expect(splitUnits(input).map((u) => u.kind)).toEqual(['sentence']);
    expect(splitUnits('Engineers measured the main span\nat 1,280 metres.').map((u) => u.kind)).toEqual(['sentence']);
  });

  it('takes a title line after a finished sentence for a heading', () => {
    expect(splitUnits('It ended in 1937.\nLater Years\nThe bridge aged.').map((u) => u.kind)).toEqual(['sentence', 'heading', 'sentence']);
  });

  it('makes table rows units of their own', () => {
    const input = 'Table 1 shows spans.\n| bridge | span |\n|---|---|\n| Golden Gate | 1,280 m |\nMore text.';
    const units = splitUnits(input);
    expect(units.filter((u) => u.kind === 'table-row').map((u) => u.text)).toEqual([
      '| bridge | span |',
      '|---|---|',
      '| Golden Gate | 1,280 m |',
    ]);
    expect(units[units.length - 1]!.text).toBe('More text.');
  });

  it('skips horizontal rules', () => {
    expect(texts('One.\n---\nTwo.')).toEqual(['One.', 'Two.']);
  });

  it('handles CRLF line endings with exact offsets', () => {
    const input = 'Title Line\r\nThe first sentence. The second.\r\n\r\nAnother paragraph.';
    const spans = splitSentences(input);
    expect(spans.map((s) => s.text)).toEqual(['Title Line', 'The first sentence.', 'The second.', 'Another paragraph.']);
    expectExactOffsets(input, spans);
  });

  it('keeps text === input.slice(start, end) on a long mixed document', () => {
    const input = [
      '# Report',
      '',
      'Intro\nDr. A. Smith (U.S. Army) said "it is 3.5 m." Really? Yes!',
      '',
      '- item one is here',
      '- item two',
      '| a | b |',
      '',
      'Visit www.example.com. Costs: $1,200.75… Done',
      '   ',
    ].join('\n');
    const spans = splitSentences(input);
    expect(spans.length).toBeGreaterThan(8);
    expectExactOffsets(input, spans);
  });

  it('is deterministic', () => {
    const input = 'One sentence. Another one! A third? Dr. Who.';
    expect(splitSentences(input)).toEqual(splitSentences(input));
  });
});

describe('listMarkerLength', () => {
  it('measures list markers and nothing else', () => {
    expect(listMarkerLength('- item')).toBe(2);
    expect(listMarkerLength('+ item')).toBe(2);
    expect(listMarkerLength('12. item')).toBe(4);
    expect(listMarkerLength('a) item')).toBe(3);
    expect(listMarkerLength('plain text')).toBe(0);
  });
});

describe('splitSentences on generated text', () => {
  // A seeded generator: the same "random" documents on every run.
  function lcg(seed: number): () => number {
    let s = seed;
    return () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      return s / 2 ** 31;
    };
  }
  const PIECES = [
    'Dr.',
    'Smith',
    'said',
    'U.S.',
    '3.5',
    '1,200.75',
    'e.g.',
    'etc.',
    '"Stop."',
    '(see Fig. 2)',
    'It',
    'The',
    'end.',
    'Really?',
    'Yes!',
    '...',
    '\n',
    '\n\n',
    '- item',
    '# Title',
    '| a | b |',
    'https://x.org/a.b',
    'a@b.co',
    'Wait…',
    '  ',
    '\r\n',
    'J.',
    'No. 5',
  ];

  it.each(Array.from({ length: 25 }, (_, i) => i + 1))('keeps exact, ordered, trimmed spans (seed %i)', (seed) => {
    const next = lcg(seed);
    const input = Array.from({ length: 80 }, () => PIECES[Math.floor(next() * PIECES.length)]).join(' ');
    const spans = splitSentences(input);
    for (const s of spans) {
      expect(input.slice(s.start, s.end)).toBe(s.text);
      expect(s.text).toBe(s.text.trim());
    }
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
    // Nothing but whitespace (and rule lines) is left out.
    let covered = input;
    for (const s of [...spans].reverse()) covered = covered.slice(0, s.start) + covered.slice(s.end);
    expect(covered.replace(/[\s\-=*_~]/g, '')).toBe('');
  });
});

describe('more abbreviation cases', () => {
  it.each([
    ['Mr. and Mrs. Smith arrived. They sat.', ['Mr. and Mrs. Smith arrived.', 'They sat.']],
    ['She earned a Ph.D. in 1990. It took years.', ['She earned a Ph.D. in 1990.', 'It took years.']],
    ['She has a Ph.D. The thesis is long.', ['She has a Ph.D.', 'The thesis is long.']],
    ['Meet at 5 p.m. Monday. Bring food.', ['Meet at 5 p.m. Monday.', 'Bring food.']],
    ['Was it approved? No. The council refused.', ['Was it approved?', 'No.', 'The council refused.']],
    ['Items (apples, pears, etc.) were sold. Then we left.', ['Items (apples, pears, etc.) were sold.', 'Then we left.']],
    ['Smith et al. (2020) found it. Others did not.', ['Smith et al. (2020) found it.', 'Others did not.']],
  ])('%s', (input, expected) => {
    expect(splitSentences(input).map((s) => s.text)).toEqual(expected);
  });
});

describe('a wrapped line is no heading (decision 0132)', () => {
  it.each([
    [
      'Put obj into the queue.  If the optional argument block is True\n(the default) and timeout is None (the default), block if necessary.',
      [
        'Put obj into the queue.',
        'If the optional argument block is True\n(the default) and timeout is None (the default), block if necessary.',
      ],
    ],
    [
      'This module provides low-level primitives for working with multiple threads\n(also called light-weight processes) sharing their data.',
      [
        'This module provides low-level primitives for working with multiple threads\n(also called light-weight processes) sharing their data.',
      ],
    ],
    [
      'Derived from BrokenExecutor (formerly\nRuntimeError), this exception class is raised when a worker dies.',
      ['Derived from BrokenExecutor (formerly\nRuntimeError), this exception class is raised when a worker dies.'],
    ],
    // A PDF's line broken inside a figure: the unit opens the next line (decision 0168).
    [
      'The Office accepts that charging below 0\n°C contributed to the incidents. It does not accept that.',
      ['The Office accepts that charging below 0\n°C contributed to the incidents.', 'It does not accept that.'],
    ],
    ['Prices rose by 12\n% in the year to March.', ['Prices rose by 12\n% in the year to March.']],
    // A sentence ending on a word in capitals ends in the line, as one ending in lower case does.
    [
      'The level parameter was defaulted to level CRITICAL. See\nbpo-28524 for more information about this change.',
      ['The level parameter was defaulted to level CRITICAL.', 'See\nbpo-28524 for more information about this change.'],
    ],
  ])('%s', (input, expected) => {
    expect(splitUnits(input).map((u) => [u.kind, u.text])).toEqual(expected.map((t) => ['sentence', t]));
  });

  it("never reads an excerpt's first line as a heading: an excerpt opens with a sentence (decision 0168)", () => {
    const excerpt =
      'In February 2025 we recalled\nVB-36 battery packs produced in 2023, after reports that some packs could overheat while\ncharging. We took this decision.';
    // Alone, the line looks like a title over a paragraph.
    expect(splitUnits(excerpt).map((u) => u.kind)).toEqual(['heading', 'sentence', 'sentence']);
    expect(splitExcerpt(excerpt).map((u) => [u.kind, u.text])).toEqual([
      [
        'sentence',
        'In February 2025 we recalled\nVB-36 battery packs produced in 2023, after reports that some packs could overheat while\ncharging.',
      ],
      ['sentence', 'We took this decision.'],
    ]);
    // A title line further on is still a heading.
    expect(splitExcerpt('The queue is shared.\nQueues and pipes\nThe pipe is not.').map((u) => u.kind)).toEqual([
      'sentence',
      'heading',
      'sentence',
    ]);
  });

  it('still reads a title line as a heading', () => {
    expect(splitUnits('Queues and pipes\nThe queue is shared.').map((u) => u.kind)).toEqual(['heading', 'sentence']);
    expect(splitUnits('REBASE VS. PULL/MERGE\nHonestly, the choice is yours.').map((u) => u.kind)).toEqual(['heading', 'sentence']);
  });
});

describe('a literal block after a lead-in ending with a colon (decision 0137)', () => {
  const dataclass = [
    '   If dataclass is used just as a simple decorator with no parameters,',
    '   it acts as if it has the default values documented in this',
    '   signature.  That is, these three uses of dataclass are',
    '   equivalent:',
    '',
    '     @dataclass',
    '     class C:',
    '         ...',
    '',
    '     @dataclass(init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False,',
    '                match_args=True, kw_only=False, slots=False, weakref_slot=False)',
    '     class C:',
    '         ...',
    '',
    '   The parameters to dataclass are:',
  ].join('\n');

  it('is one code unit, across its blank lines, though no line of it looks like code alone', () => {
    const units = splitUnits(dataclass);
    expect(units.map((u) => u.kind)).toEqual(['sentence', 'sentence', 'code', 'sentence']);
    expect(units[2]!.text).toMatch(/^@dataclass\n {5}class C:[\s\S]*weakref_slot=False\)\n {5}class C:\n {9}\.\.\.$/);
    expect(units[1]!.text).toBe('That is, these three uses of dataclass are\n   equivalent:');
  });

  it('is not a block quote or a note indented under the lead-in, nor a nested list', () => {
    const quote = [
      'The arguments that are most commonly needed are:',
      '',
      '   args is required for all calls and should be a string, or a sequence of',
      '   program arguments.',
    ].join('\n');
    expect(splitUnits(quote).map((u) => u.kind)).toEqual(['sentence', 'sentence']);
    expect(splitUnits('The options are:\n\n  - one\n  - two').map((u) => u.kind)).toEqual(['sentence', 'list-item', 'list-item']);
  });

  it('needs the deeper indentation: a paragraph at the margin after a colon is prose', () => {
    expect(splitUnits('For example:\n\nThe queue is shared by every worker of the pool.').map((u) => u.kind)).toEqual([
      'sentence',
      'sentence',
    ]);
  });
});

describe('codeIntroduced shows a literal block from the margin (decision 0137)', () => {
  it('takes the indentation its lines share off, keeping the inner one', () => {
    const excerpt = [
      'For example:',
      '',
      '     @dataclass',
      '     class C:',
      '         mylist: list[int] = field(default_factory=list)',
    ].join('\n');
    expect(codeIntroduced('For example:', [excerpt])).toBe('@dataclass\nclass C:\n    mylist: list[int] = field(default_factory=list)');
  });
});

describe('a shell session is one code unit (decision 0146)', () => {
  // git-manual's gitignore(5) example, as the page's <pre> block is extracted: prompts, their output, comments.
  const session = [
    'The pattern "foo/*" matches "foo/test.json", but not "foo/bar/hello.c".',
    '',
    '    $ git status',
    '    [...]',
    '    # Untracked files:',
    '    [...]',
    '    #       Documentation/foo.html',
    '    $ cat .git/info/exclude',
    '    # ignore objects and archives, anywhere in the tree.',
    '    *.[oa]',
    '    $ cat Documentation/.gitignore',
    '    # ignore generated html files,',
    '    *.html',
    '    # except foo.html which is maintained by hand',
    '    !foo.html',
    '    $ git status',
    '    [...]',
    '',
    'Another example:',
  ].join('\n');

  it('holds its prompts and their output lines, though no output line looks like code alone', () => {
    const units = splitUnits(session);
    expect(units.map((u) => u.kind)).toEqual(['sentence', 'code', 'sentence']);
    expect(units[1]!.text).toMatch(/^\$ git status\n[\s\S]*\*\.\[oa\]\n[\s\S]*!foo\.html\n {4}\$ git status\n {4}\[\.\.\.\]$/);
  });

  it('is under the sentence introducing it, which codeIntroduced shows it under, from the margin', () => {
    const excerpt = 'The files are listed with this session:\n\n$ ls arch/foo/kernel/vm*\narch/foo/kernel/vmlinux.lds.S';
    expect(splitUnits(excerpt).map((u) => u.kind)).toEqual(['sentence', 'code']);
    expect(codeIntroduced('The files are listed with this session:', [excerpt])).toBe(
      '$ ls arch/foo/kernel/vm*\narch/foo/kernel/vmlinux.lds.S',
    );
  });

  it('is not a paragraph with a line reading as a sentence, nor a dollar figure', () => {
    const mixed = '$ git gc\nThe command packs loose objects into a single pack file.';
    expect(splitUnits(mixed).map((u) => u.kind)).toEqual(['sentence']);
    expect(splitUnits('$ 5 million was spent on the repair\nin 2024, the council said.').map((u) => u.kind)).toEqual(['sentence']);
  });
});
