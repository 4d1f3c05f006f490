import { queryPlanner } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.queryPlanner;

describe('queryPlanner (offline)', () => {
  it('respects maxQueries and never repeats a query', () => {
    for (const maxQueries of [1, 3, 5, 20]) {
      const { queries } = queryPlanner.offline({ ...base, maxQueries });
      expect(queries.length).toBeLessThanOrEqual(maxQueries);
      expect(new Set(queries.map((q) => q.query.toLowerCase())).size).toBe(queries.length);
    }
  });

  it('gives every question a key-phrase query before adding variants', () => {
    const { queries } = queryPlanner.offline({ ...base, maxQueries: 4 });
    expect(new Set(queries.map((q) => q.questionId))).toEqual(new Set(base.questions.map((q) => q.id)));
    expect(queries.every((q) => !q.query.includes('?'))).toBe(true);
  });

  it('starts with the highest-priority question and keeps its years', () => {
    const { queries } = queryPlanner.offline(base);
    expect(queries[0]!.questionId).toBe('Q0');
    expect(queries[0]!.query).toBe('golden gate bridge construction cost 1933 1937');
  });

  it('anchors sub-question queries to the main topic', () => {
    const { queries } = queryPlanner.offline(base);
    const q3 = queries.find((q) => q.questionId === 'Q3')!;
    expect(q3.query).toContain('golden gate bridge');
    expect(q3.query).toContain('painters');
  });

  it('anchors every key-phrase query to the dotted names and calls the question writes, whole', () => {
    const question = 'How do I run an external command with subprocess.run, and make it raise an error when the command fails?';
    const { queries } = queryPlanner.offline({
      ...base,
      question,
      questions: [
        { id: 'Q0', text: question, priority: 90 },
        { id: 'Q1', text: 'What goes wrong if the external command fails?', priority: 50 },
      ],
      maxQueries: 2,
    });
    expect(queries.map((q) => q.query)).toEqual([
      expect.stringMatching(/^subprocess\.run external command/),
      expect.stringMatching(/^subprocess\.run /),
    ]);
  });

  it('spreads queries over providers and rotates with the iteration', () => {
    const first = queryPlanner.offline(base).queries.map((q) => q.provider);
    expect(first.slice(0, 2)).toEqual(['corpus', 'web']);
    const next = queryPlanner.offline({ ...base, iteration: 1 }).queries.map((q) => q.provider);
    expect(next.slice(0, 2)).toEqual(['web', 'corpus']);
  });

  it('only uses known question ids and providers', () => {
    const ids = new Set(base.questions.map((q) => q.id));
    for (const q of queryPlanner.offline({ ...base, maxQueries: 20 }).queries) {
      expect(ids.has(q.questionId)).toBe(true);
      expect(base.providers).toContain(q.provider);
    }
  });

  it('rejects an empty provider list', () => {
    expect(queryPlanner.input.safeParse({ ...base, providers: [] }).success).toBe(false);
  });

  it('a narrowed scope (run intervention) adds its years and main key phrase to every key-phrase query, and is in the prompt', () => {
    const plain = queryPlanner.offline(base).queries;
    const scoped = queryPlanner.offline({ ...base, scope: ['Only the years 2015 to 2024'] }).queries;
    const keyword = scoped.filter((q) => !/[A-Z]/.test(q.query));
    expect(keyword.length).toBeGreaterThan(0);
    expect(keyword.every((q) => q.query.endsWith('2015 2024') && !/\byears\b/.test(q.query))).toBe(true);
    expect(plain.some((q) => q.query.includes('2015'))).toBe(false);
    const topical = queryPlanner
      .offline({ ...base, scope: ['Paint and corrosion of the cables'] })
      .queries.filter((q) => !/[A-Z]/.test(q.query));
    expect(topical.every((q) => /paint|corrosion|cables/.test(q.query))).toBe(true);
    const prompt = queryPlanner.prompt({ ...base, scope: ['Only the years 2015 to 2024'] });
    expect(JSON.stringify(prompt)).toContain('Only the years 2015 to 2024');
  });
});
