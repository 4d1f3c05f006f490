import { PERSPECTIVE_CATALOGUE, PRACTICAL_CATALOGUE, perspectivePlanner } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.perspectivePlanner;

describe('perspectivePlanner (offline)', () => {
  it.each([1, 3, 6, 8, 12])('returns exactly %i perspectives with distinct names', (count) => {
    const { perspectives } = perspectivePlanner.offline({ ...base, count });
    expect(perspectives).toHaveLength(count);
    expect(new Set(perspectives.map((p) => p.name)).size).toBe(count);
  });

  it('uses the catalogue in order by default, with equal weights summing to 1', () => {
    const objective = { statement: 'Describe the bridge.', includedTopics: ['golden gate bridge'] };
    const { perspectives } = perspectivePlanner.offline({ ...base, objective, question: 'What is the Golden Gate Bridge?', count: 3 });
    expect(perspectives.map((p) => p.name)).toEqual(PERSPECTIVE_CATALOGUE.slice(0, 3).map((a) => a.name));
    expect(perspectives.every((p) => p.budgetWeight === perspectives[0]!.budgetWeight)).toBe(true);
    expect(perspectives.reduce((s, p) => s + p.budgetWeight, 0)).toBeCloseTo(1, 3);
  });

  it('builds the focus from the objective topics', () => {
    const { perspectives } = perspectivePlanner.offline(base);
    for (const p of perspectives) expect(p.focus).toContain('golden gate bridge, construction cost');
  });

  it('includes a perspective the feedback asks for, weights it higher and shapes every focus', () => {
    const question = 'What is the Golden Gate Bridge?';
    const plain = perspectivePlanner.offline({ ...base, question, count: 2 });
    expect(plain.perspectives.map((p) => p.name)).not.toContain('Historian');
    const { perspectives } = perspectivePlanner.offline({
      ...base,
      question,
      count: 2,
      feedback: 'Please add a historian and more on the timeline of repainting.',
    });
    const historian = perspectives.find((p) => p.name === 'Historian');
    expect(historian).toBeDefined();
    expect(historian!.budgetWeight).toBeGreaterThan(perspectives.find((p) => p !== historian)!.budgetWeight);
    for (const p of perspectives) expect(p.focus).toContain('reviewer asked for:');
    expect(historian!.focus).toMatch(/repainting/);
  });

  it('asks for a regulator when the feedback names one', () => {
    const { perspectives } = perspectivePlanner.offline({ ...base, count: 1, feedback: 'We need the regulator view.' });
    expect(perspectives.map((p) => p.name)).toEqual(['Regulator']);
  });

  it('rejects a count outside 1..12', () => {
    expect(perspectivePlanner.input.safeParse({ ...base, count: 0 }).success).toBe(false);
    expect(perspectivePlanner.input.safeParse({ ...base, count: 13 }).success).toBe(false);
  });
});

describe('perspectivePlanner (offline): analysts that fit the subject (issue 28)', () => {
  it.each([
    'How do I read a file line by line in Node.js?',
    'How can I run a child process and capture its output?',
    'What does fs.readFile return when the encoding option is set?',
  ])('a how-to or reference question gets a practitioner, a maintainer and a newcomer: %s', (question) => {
    const objective = { statement: question, includedTopics: [] };
    const { perspectives } = perspectivePlanner.offline({ ...base, objective, question, count: 3, feedback: null });
    expect(perspectives.map((p) => p.name)).toEqual(['Practitioner', 'Maintainer', 'Newcomer']);
    for (const p of perspectives) expect(p.role).not.toMatch(/economist|regulator|scientist/i);
    expect(PRACTICAL_CATALOGUE.map((a) => a.name)).not.toEqual(expect.arrayContaining(['Industry Economist', 'Regulator']));
  });

  it('a question about the world keeps the research panel', () => {
    const question = "What caused the decline of Lake Varen's water level?";
    const objective = { statement: question, includedTopics: [] };
    const { perspectives } = perspectivePlanner.offline({ ...base, objective, question, count: 3, feedback: null });
    expect(perspectives.map((p) => p.name)).toEqual(PERSPECTIVE_CATALOGUE.slice(0, 3).map((a) => a.name));
  });

  it('tells the model to fit the analysts to the kind of question', () => {
    const prompt = JSON.stringify(perspectivePlanner.prompt(base));
    expect(prompt).toMatch(/how-to or reference question/);
    expect(prompt).toMatch(/not an economist or a regulator/);
  });
});
