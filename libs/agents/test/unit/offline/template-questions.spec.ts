import { templateQuestion } from '../../../src/offline/template-questions';
import { questionArchitectOffline } from '../../../src/offline/roles/question-architect';
import { moderatorOffline } from '../../../src/offline/roles/moderator';

/* The offline planner's templates, recognised from the templates themselves (decision 0166). */
describe('templateQuestion', () => {
  const perspectives = [
    'Scientist',
    'Regulator',
    'Economist',
    'Affected community',
    'Methodologist',
    'Historian',
    'Practitioner',
    'Ethicist',
    'Security reviewer',
    'Performance engineer',
    'Newcomer',
    'Support engineer',
    'Release historian',
    'Maintainer',
    'Birdwatcher',
  ].map((name, i) => ({ id: `p${i}`, name, focus: `${name.toLowerCase()} views concerning the subject` }));

  it.each([
    'What caused the decline of Lake Varen’s water level, and how large was it?',
    'How do I run an external command with subprocess.run and capture its output?',
    'Has the fish population of Lake Varen recovered after the restocking programme?',
  ])('recognises every question the offline planner builds for: %s', (question) => {
    const { questions } = questionArchitectOffline({ question, perspectives, topics: [], feedback: null });
    const own = questions.filter((q) => q.perspectiveId !== null).map((q) => q.text);
    expect(own.length).toBeGreaterThan(10);
    expect(own.filter((q) => !templateQuestion(q))).toEqual([]);
    // The question itself and its clauses are not templates.
    expect(questions.filter((q) => q.perspectiveId === null).some((q) => templateQuestion(q.text))).toBe(false);
  });

  it("recognises the research loop's follow-ups", () => {
    const coverage = [0.1, 0.5].map((score, i) => ({ questionId: `q${i}`, text: `Question ${i} about the lake level?`, score }));
    for (const iteration of [0, 1, 2]) {
      const { followUps } = moderatorOffline({ question: 'How far did the lake level fall?', coverage, iteration, maxFollowUps: 5 });
      expect(followUps.length).toBeGreaterThan(0);
      for (const f of followUps) expect({ f: f.text, template: templateQuestion(f.text) }).toEqual({ f: f.text, template: true });
    }
  });

  it('is not a question that only opens like one', () => {
    for (const q of [
      'How is the water level of Lake Varen measured?',
      'What does the fire service advise about charging e-bike batteries at home?',
      'When did the Tessel Canal open, and why do some sources give 2018?',
      'What does the recall cost Arvenna?',
    ])
      expect({ q, template: templateQuestion(q) }).toEqual({ q, template: false });
  });
});
