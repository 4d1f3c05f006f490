import { PRACTICAL_CATALOGUE, questionArchitect } from '../../../src/roles';
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
      // A how-to question: the practitioner asks about the task as asked (issue 28).
      'What are the steps to unstage a file with git restore, with a minimal working example?',
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

describe('questionArchitect (offline): sub-questions that fit a how-to question (issue 28)', () => {
  it('names the task asked, not a noun pair cut out of it, from each practical analyst', () => {
    const question = 'How do I read a file line by line in Node.js?';
    const perspectives = PRACTICAL_CATALOGUE.slice(0, 3).map((a, i) => ({
      id: `00000000-0000-4000-8000-00000000000${i}`,
      name: a.name,
      focus: a.focus,
    }));
    const { questions } = questionArchitect.offline({ ...base, question, topics: [], perspectives, feedback: null });
    const asked = questions.filter((q) => q.perspectiveId !== null).map((q) => q.text);
    expect(asked).toEqual([
      'What are the steps to read a file line by line in Node.js, with a minimal working example?',
      'Which calls, options and defaults does the documentation give to read a file line by line in Node.js?',
      'What is the simplest complete way to read a file line by line in Node.js, and what do newcomers get wrong?',
    ]);
    for (const q of questions) expect(q.text).not.toMatch(/file line work|cost|official figures/);
  });
});
