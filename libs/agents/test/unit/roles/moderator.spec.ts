import { asWritten } from '../../../src/offline/topics';
import { moderator, WELL_COVERED } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.moderator;

describe('moderator (offline)', () => {
  it('asks follow-ups only for weakly covered questions, weakest first', () => {
    const { followUps } = moderator.offline(base);
    expect(followUps.map((f) => f.parentId)).toEqual(['Q3', 'Q2']);
    expect(followUps[0]!.priority).toBeGreaterThan(followUps[1]!.priority);
  });

  it('asks for basic figures on barely covered questions and for counter-evidence on partly covered ones', () => {
    const { followUps } = moderator.offline({ ...base, iteration: 0 });
    expect(followUps[0]!.text).toBe('What figures are reported for the safety record?');
    expect(followUps[1]!.text).toBe('What evidence contradicts the reported claims about the construction cost?');
  });

  it('varies the template with the iteration', () => {
    const a = moderator.offline({ ...base, iteration: 0 }).followUps.map((f) => f.text);
    const b = moderator.offline({ ...base, iteration: 1 }).followUps.map((f) => f.text);
    expect(a).not.toEqual(b);
  });

  it('asks nothing when every question is well covered', () => {
    const coverage = base.coverage.map((c) => ({ ...c, score: WELL_COVERED }));
    expect(moderator.offline({ ...base, coverage }).followUps).toEqual([]);
  });

  it('respects maxFollowUps', () => {
    expect(moderator.offline({ ...base, maxFollowUps: 1 }).followUps).toHaveLength(1);
    expect(moderator.offline({ ...base, maxFollowUps: 0 }).followUps).toEqual([]);
  });

  describe('template aspects need their material (issue 25 item 3)', () => {
    const lake = "How large was the decline of Lake Varen's water level?";
    const ask = (score: number, material: { sources: number; dated: number; figures: number } | undefined, iteration: number) =>
      moderator
        .offline({
          question: lake,
          coverage: [{ questionId: 'Q1', text: lake, score, ...(material ? { material } : {}) }],
          iteration,
          maxFollowUps: 4,
        })
        .followUps.map((f) => f.text);
    const all = (score: number, material: { sources: number; dated: number; figures: number } | undefined) =>
      [0, 1, 2, 3, 4, 5].flatMap((i) => ask(score, material, i));

    it('never asks what changed recently without dated text from two sources, nor for confirmation of figures without figures from two', () => {
      const texts = all(0.3, { sources: 5, dated: 1, figures: 1 });
      expect(texts.some((t) => /changed recently/.test(t))).toBe(false);
      expect(texts.some((t) => /independent sources confirm/.test(t))).toBe(false);
      expect(texts.some((t) => /contradicts/.test(t))).toBe(true);
    });

    it('asks them when the material is there, naming the subject as the question writes it', () => {
      const texts = all(0.3, { sources: 5, dated: 2, figures: 3 });
      expect(texts).toContain("What has changed recently about Lake Varen's water level?");
      expect(texts).toContain("What independent sources confirm the figures for Lake Varen's water level?");
    });

    it('asks for figures only when a source gives them, and for the basic facts only when a source was found', () => {
      expect(all(0.1, { sources: 0, dated: 0, figures: 0 })).toEqual(
        Array(6).fill("What do official sources say about Lake Varen's water level?"),
      );
      const found = all(0.1, { sources: 3, dated: 0, figures: 1 });
      expect(found).toContain("What figures are reported for Lake Varen's water level?");
      expect(found).toContain("What are the basic facts about Lake Varen's water level?");
    });

    it('never writes a subject in lower-case key words', () => {
      for (const t of all(0.1, undefined).concat(all(0.3, undefined))) expect(t).not.toMatch(/lake varen/);
    });
  });

  it("shows a model each question's material and asks it to follow the same rule", () => {
    const coverage = [{ questionId: 'Q1', text: 'How far did the lake fall?', score: 0.3, material: { sources: 4, dated: 0, figures: 3 } }];
    const prompt = moderator.prompt({ ...base, coverage });
    expect(prompt.user).toContain('[Q1] (score 0.3; sources 4, dated 0, figures 3) How far did the lake fall?');
    expect(prompt.system).toMatch(/Ask what changed recently only about a question whose sources hold dates/);
    // Without material (a run recorded before it was counted), as before.
    expect(moderator.prompt(base).user).toContain('(score 0.1)');
  });

  it('writes a key phrase as its text does', () => {
    expect(asWritten('lake varen water level', "How large was the decline of Lake Varen's water level?")).toBe("Lake Varen's water level");
    expect(asWritten('safety record', 'Who disputes the safety record of the bridge painters?')).toBe('the safety record');
    // Not in a row: word by word, in the text's casing.
    expect(asWritten('varen level', 'Why did the level of Lake Varen fall?')).toBe('Varen level');
  });

  it("asks a template question's follow-up about its slot, never about the template's words (decision 0169)", () => {
    const coverage = [{ questionId: 'Q9', text: 'How is Arvenna measured, and what mechanisms explain it?', score: 0.1 }];
    const { followUps } = moderator.offline({ ...base, coverage, iteration: 0 });
    expect(followUps.map((f) => f.text)).toEqual(['What figures are reported for Arvenna?']);
  });
});
