import { questionArchitect } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.questionArchitect;

describe('questionArchitect (offline)', () => {
  it('starts with the main question at priority 100', () => {
    const { questions } = questionArchitect.offline(base);
    expect(questions[0]).toEqual({ perspectiveId: null, text: base.question, priority: 100 });
    expect(questions.filter((q) => q.priority === 100)).toHaveLength(1);
  });

  it('asks one question per perspective, each perspective its own aspect of the question', () => {
    const { questions } = questionArchitect.offline(base);
    for (const p of base.perspectives) expect(questions.filter((q) => q.perspectiveId === p.id)).toHaveLength(1);
    const texts = questions.filter((q) => q.perspectiveId !== null).map((q) => q.text);
    expect(new Set(texts).size).toBe(texts.length);
    expect(texts.find((t) => t.startsWith('How is'))).toMatch(/measured/);
    expect(texts.some((t) => t.startsWith('When did'))).toBe(true);
  });

  it("turns each clause of the question into a sub-question, its pronouns resolved, before the perspectives' questions", () => {
    const question = "What caused the decline of Lake Varen's water level, and how large was it?";
    const { questions } = questionArchitect.offline({ ...base, question, topics: [] });
    expect(questions.slice(1, 3).map((q) => q.text)).toEqual([
      "What caused the decline of Lake Varen's water level?",
      "How large was the decline of Lake Varen's water level?",
    ]);
    const rest = questions.slice(3);
    expect(rest.every((q) => q.text.includes("the decline of Lake Varen's water level") && q.priority < questions[2]!.priority)).toBe(true);
  });

  it('perspectives change which sub-questions are asked', () => {
    const question = 'What caused the decline of the tidal fishery?';
    const ask = (names: string[]) =>
      questionArchitect
        .offline({ ...base, question, topics: [], perspectives: names.map((name, i) => ({ id: `P${i}`, name, focus: name })) })
        .questions.slice(1)
        .map((q) => q.text);
    expect(ask(['Industry Economist', 'Historian'])).toEqual([
      'What does the decline of the tidal fishery cost, and who bears the cost?',
      'When did the decline of the tidal fishery begin, and what were the key events?',
    ]);
    expect(ask(['Methodologist', 'Practitioner'])).toEqual([
      'Why do sources report different figures for the decline of the tidal fishery?',
      'How is the decline of the tidal fishery handled in practice?',
    ]);
  });

  it("a question about using a tool gets a manual's aspects: defaults, pitfalls, versions, never its history or measurement", () => {
    const ask = (question: string, names: string[]) =>
      questionArchitect
        .offline({ ...base, question, topics: [], perspectives: names.map((name, i) => ({ id: `P${i}`, name, focus: name })) })
        .questions.filter((q) => q.perspectiveId !== null)
        .map((q) => q.text);
    // Named as a command in capitals…
    expect(ask('How does VACUUM reclaim storage?', ['Domain Scientist', 'Historian', 'Methodologist', 'Regulator'])).toEqual([
      'How does VACUUM work?',
      'How has VACUUM changed between versions?',
      'What are the limitations and pitfalls of VACUUM?',
      'What options and defaults does the documentation give for VACUUM?',
    ]);
    // …or asked by someone who wants to do something with it.
    expect(ask('How do I unstage a file with git restore?', ['Industry Economist', 'Practitioner'])).toEqual([
      'What does git restore cost in time or resources, and what are the alternatives?',
      'How is git restore used in practice, step by step?',
    ]);
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

  it('asks about the subject the question names', () => {
    const { questions } = questionArchitect.offline({ ...base, topics: [], question: 'How safe are lithium batteries?' });
    expect(questions.slice(1).every((q) => q.text.includes('lithium batteries'))).toBe(true);
  });

  it('keeps priorities within 0..100', () => {
    for (const q of questionArchitect.offline(base).questions) {
      expect(q.priority).toBeGreaterThanOrEqual(0);
      expect(q.priority).toBeLessThanOrEqual(100);
    }
  });
});
