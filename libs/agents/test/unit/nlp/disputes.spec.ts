import { fromDistinctSources, opposedStatements, opposingPairs } from '../../../src/offline/nlp/disputes';
import { detectContradiction } from '../../../src/offline/nlp/contradiction';

describe('opposedStatements: two statements that say opposite things about the same subject (decision 0087)', () => {
  const began = 'The year-on-year decline began in the first full year of large-scale canal operation.';
  const before = 'The decline started before large-scale irrigation.';

  it('an onset placed on both sides of the same event, which the contradiction rules do not pair', () => {
    expect(detectContradiction(began, before)).toBeNull();
    expect(opposedStatements(began, before)).toBe(true);
    expect(opposedStatements(before, began)).toBe(true);
  });

  it('the contradiction rules still count: a different figure for the same quantity, opposite polarity', () => {
    expect(opposedStatements('Lake Varen has lost 18% of its surface area.', 'Lake Varen has lost 27% of its surface area.')).toBe(true);
    expect(
      opposedStatements('Irrigation withdrawals caused the decline.', 'Irrigation withdrawals did not cause the decline of Lake Varen.'),
    ).toBe(true);
  });

  it.each([
    ['the same side of the event', 'The decline began with large-scale irrigation.', began],
    [
      'another subject',
      'Irrigation started before large-scale canal operation.',
      'The decline began in the first year of the canal operation.',
    ],
    ['another event', 'The decline started before the drought.', began],
    ['an onset with no event to place it against', 'The decline started in 2015.', before],
    ['no onset at all', 'The lake is shallow.', before],
  ])('not opposed: %s', (_, a, b) => {
    expect(opposedStatements(a, b)).toBe(false);
  });

  it('opposingPairs: every opposed pair of a list, by index', () => {
    expect(opposingPairs([began, 'The lake is shallow.', before, 'The decline began with large-scale irrigation.'])).toEqual([
      [0, 2],
      [2, 3],
    ]);
  });
});

describe('false disputes of documentation corpora (decision 0098)', () => {
  it('a negation inside a conditional clause is not a denial', () => {
    const noOp = 'If Node.js was not started with the --test-only command-line option, this function is a no-op.';
    expect(detectContradiction(noOp, 'Starts the Node.js command line test runner.')).toBeNull();
    expect(opposedStatements(noOp, 'Starts the Node.js command line test runner.')).toBe(false);
    expect(
      opposedStatements('A test reporter to use when running tests.', 'If no tests are run, a coverage report is not generated.'),
    ).toBe(false);
    expect(opposedStatements('Otherwise, all tests are run.', 'shouldRunOnlyTests {boolean} Whether or not to run only tests.')).toBe(
      false,
    );
    expect(
      opposedStatements(
        'Used to specify how the modules should be loaded during the evaluation of this script when import() is called.',
        'Used to specify how the modules should be loaded when import() is called in this context without a referrer script or module.',
      ),
    ).toBe(false);
    // Unless, only if, in case: conditions too, before or after the main clause.
    expect(opposedStatements('The cache is flushed on exit.', 'The cache is flushed on exit only if the process was not killed.')).toBe(
      false,
    );
    expect(opposedStatements('The cache is flushed on exit.', 'Unless the process was not killed, the cache is flushed on exit.')).toBe(
      false,
    );
  });

  it('a negation in the main clause still denies, with a condition beside it', () => {
    expect(opposedStatements('A coverage report is generated.', 'If no tests are run, a coverage report is not generated.')).toBe(true);
    expect(
      opposedStatements(
        'Irrigation withdrawals caused the decline.',
        'When measured over a decade, irrigation withdrawals did not cause the decline.',
      ),
    ).toBe(true);
  });

  it('statements naming different API identifiers are about different subjects', () => {
    const run = 'The vm.runInContext() method compiles code and returns the result after 5 milliseconds.';
    const compile = 'The vm.compileFunction() method compiles code and returns the result after 10 milliseconds.';
    expect(detectContradiction(run, compile)).toBeNull();
    expect(opposedStatements(run, compile)).toBe(false);
    expect(
      opposedStatements(
        'The `timeout` option of vm.runInContext() is not supported.',
        'The timeout option of vm.runInContext() is supported.',
      ),
    ).toBe(true);
    expect(opposedStatements('The --test-only flag does not skip suites.', 'The --test-name-pattern flag skips suites.')).toBe(false);
    // Product names are not identifiers: "Node.js" on one side only still compares.
    expect(opposedStatements('Node.js caches compiled modules.', 'Node.js does not cache compiled modules.')).toBe(true);
  });

  it('a dispute needs opposing sides from two distinct sources', () => {
    const a = 'Lake Varen has lost 18% of its surface area.';
    const b = 'Lake Varen has lost 27% of its surface area.';
    expect(opposingPairs([a, b], [['S1'], ['S1']])).toEqual([]);
    expect(opposingPairs([a, b], [['S1'], ['S2']])).toEqual([[0, 1]]);
    // One side also stated by another source: the two sources oppose each other.
    expect(opposingPairs([a, b], [['S1', 'S2'], ['S1']])).toEqual([[0, 1]]);
    // Sources unknown: compared as before.
    expect(opposingPairs([a, b])).toEqual([[0, 1]]);
    expect(opposingPairs([a, b], [[], ['S1']])).toEqual([[0, 1]]);
  });

  it('fromDistinctSources: some source states one side and not the other', () => {
    expect(fromDistinctSources(['S1'], ['S1'])).toBe(false);
    expect(fromDistinctSources(['S1'], ['S2'])).toBe(true);
    expect(fromDistinctSources(['S1', 'S1'], ['S1'])).toBe(false);
    expect(fromDistinctSources(['S1', 'S2'], ['S1'])).toBe(true);
    expect(fromDistinctSources([], ['S1'])).toBe(true);
    // Two sources, each stating both sides: each holds both, so they are two things described, not a dispute (0153).
    expect(fromDistinctSources(['S1', 'S2'], ['S2', 'S1'])).toBe(false);
    expect(fromDistinctSources(['S1', 'S2'], ['S2', 'S3'])).toBe(true);
  });
});
