import { questionArchitect } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.questionArchitect;

describe('questionArchitect (offline)', () => {
  it('starts with the main question at priority 100', () => {
    const { questions } = questionArchitect.offline(base);
    expect(questions[0]).toEqual({ perspectiveId: null, text: base.question, priority: 100 });
    expect(questions.filter((q) => q.priority === 100)).toHaveLength(1);
  });

  it('asks 2–3 questions per perspective', () => {
    const { questions } = questionArchitect.offline(base);
    for (const p of base.perspectives) {
      const own = questions.filter((q) => q.perspectiveId === p.id).length;
      expect(own).toBeGreaterThanOrEqual(2);
      expect(own).toBeLessThanOrEqual(3);
    }
  });

  it('covers what / how much / when / why / who-disagrees across the panel', () => {
    const texts = questionArchitect.offline(base).questions.map((q) => q.text);
    for (const start of ['What is known', 'What figures', 'When did', 'Why does', 'Who disputes']) {
      expect(texts.some((t) => t.startsWith(start))).toBe(true);
    }
  });

  it('never repeats a question', () => {
    const many = {
      ...base,
      topics: ['bridge'],
      perspectives: Array.from({ length: 8 }, (_, i) => ({ id: `P${i}`, name: 'Analyst', focus: 'same focus concerning bridge' })),
    };
    const texts = questionArchitect.offline(many).questions.map((q) => q.text.toLowerCase());
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('adds questions for the feedback', () => {
    const { questions } = questionArchitect.offline({ ...base, feedback: 'Add more on maintenance costs.' });
    const asked = questions.find((q) => q.priority === 95);
    expect(asked?.text).toBe('What does the evidence say about maintenance costs in relation to golden gate bridge?');
    expect(asked?.perspectiveId).toBeNull();
  });

  it('falls back to the question key phrases without topics', () => {
    const { questions } = questionArchitect.offline({ ...base, topics: [], question: 'How safe are lithium batteries?' });
    expect(questions.filter((q) => q.perspectiveId === 'P1').every((q) => q.text.includes('lithium batteries'))).toBe(true);
    expect(questions.slice(1).every((q) => /lithium batteries|safe/.test(q.text))).toBe(true);
  });

  it('keeps priorities within 0..100', () => {
    for (const q of questionArchitect.offline(base).questions) {
      expect(q.priority).toBeGreaterThanOrEqual(0);
      expect(q.priority).toBeLessThanOrEqual(100);
    }
  });
});
