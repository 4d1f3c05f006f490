import { framer, openPoints } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';

const base = ROLE_INPUTS.framer;

describe('framer (offline)', () => {
  const out = framer.offline(base);

  const framing = (xs: { evidenceIds: string[] }[]) => xs.filter((s) => s.evidenceIds.length === 0);
  /** The introduction's cited sentences (its main findings) for a question and its sections. */
  const findings = (question: string, sections: { title: string; sentences: { text: string; evidenceIds: string[] }[] }[]) =>
    framer
      .offline({ ...base, question, sections })
      .introduction.filter((s) => s.evidenceIds.length > 0)
      .map((s) => s.text);

  it('introduces the question, then states the main findings, each cited, then the outline and the limits', () => {
    expect(out.introduction[0]!.text).toContain(base.question);
    expect(out.introduction[0]!.evidenceIds).toEqual([]);
    // The most direct answer of each section (the cited sentence sharing most of the question's and the title's words
    // for its length, decision 0089), verbatim with its citations.
    expect(out.introduction.filter((s) => s.evidenceIds.length > 0)).toEqual([
      { text: 'The Golden Gate Bridge opened to traffic on 27 May 1937.', evidenceIds: ['E1', 'E2'] },
      { text: 'The construction cost was $35 million, financed by bonds approved by voters in 1930.', evidenceIds: ['E3'] },
    ]);
    const tail = out.introduction.slice(-2);
    expect(tail[0]!.text).toBe('The report is organised in 2 sections: Construction and Cost.');
    expect(tail[1]!.text).toContain('added little new information');
    expect(tail[1]!.text).toContain('1 question still open');
    expect(framing(tail)).toHaveLength(2);
  });

  it('repeats no body sentence in the conclusion: what stays open is added by the frame step (decision 0089)', () => {
    const body = new Set(base.sections.flatMap((s) => s.sentences.map((x) => x.text)));
    expect(out.conclusion.filter((s) => body.has(s.text))).toEqual([]);
    expect(out.conclusion).toEqual([]);
  });

  it('takes a section’s most direct answer that states something, not a short sentence that only shares its words', () => {
    const sections = [
      {
        title: 'What caused the decline of the lake?',
        sentences: [
          { text: 'A survey of the shore found many new jetties.', evidenceIds: ['E1'] },
          { text: 'The causes of the decline are disputed.', evidenceIds: ['E2'] },
          { text: 'Irrigation abstraction explains about 60% of the decline of the lake since 2015.', evidenceIds: ['E3'] },
        ],
      },
    ];
    expect(findings('What caused the decline of the lake?', sections)).toEqual([
      'Irrigation abstraction explains about 60% of the decline of the lake since 2015.',
    ]);
  });

  it('states no sentence that opens with an example or a contrast as a main finding (decision 0152)', () => {
    const sections = [
      {
        title: 'How do I fix the message of my last commit with git commit --amend?',
        sentences: [
          { text: 'For example, git commit --amend --no-edit amends a commit without changing its commit message.', evidenceIds: ['E1'] },
          { text: 'However, the message of the last commit can be changed with git commit --amend.', evidenceIds: ['E2'] },
          { text: 'Replace the tip of the current branch by creating a new commit with --amend.', evidenceIds: ['E3'] },
        ],
      },
    ];
    expect(findings('How do I fix the message of my last commit with git commit --amend?', sections)).toEqual([
      'Replace the tip of the current branch by creating a new commit with --amend.',
    ]);
  });

  it('states each main finding once, and quotes section titles that are questions when it lists them', () => {
    const sections = [
      {
        title: 'How far did the level fall?',
        sentences: [{ text: 'The level fell by 6.1 metres between 2015 and 2024.', evidenceIds: ['E1'] }],
      },
      {
        title: 'Why do the figures differ?',
        sentences: [
          { text: 'The level fell by 6.1 metres between 2015 and 2024, the authority says.', evidenceIds: ['E2'] },
          { text: 'The authority’s and the university’s figures differ because one series uses annual means.', evidenceIds: ['E3'] },
        ],
      },
    ];
    const intro = framer.offline({ ...base, sections }).introduction;
    // The second section's restatement of the first finding is passed over for its own answer.
    expect(intro.filter((s) => s.evidenceIds.length > 0).map((s) => s.text)).toEqual([
      'The level fell by 6.1 metres between 2015 and 2024.',
      'The authority’s and the university’s figures differ because one series uses annual means.',
    ]);
    expect(intro.map((s) => s.text)).toContain(
      'The report is organised in 2 sections: "How far did the level fall?" and "Why do the figures differ?".',
    );
  });

  it('what stays open (appended by the frame step, whatever the engine): the open questions by name', () => {
    expect(openPoints(base)).toEqual([
      {
        text: 'The sources found do not settle this question, which stays open: "Who disputes the safety record of the bridge painters?".',
        evidenceIds: [],
      },
    ]);
  });

  it("names the disputed points as a reader would, from the sides' subject, without a side or its figures (0096)", () => {
    const disputes = [
      { sides: ['Irrigation withdrawals caused the decline.', 'Irrigation withdrawals did not cause the decline of Lake Varen.'] },
      {
        sides: ['The water level of Lake Varen fell by 13.8 metres.', 'The water level of Lake Varen fell by 4.2 metres, the panel found.'],
      },
    ];
    const open = openPoints({ ...base, question: 'Why did Lake Varen shrink?', disputes }).at(-1)!;
    expect(open.evidenceIds).toEqual([]);
    expect(open.text).toMatch(
      /^The sources disagree on 2 points \(whether irrigation withdrawals caused the decline; how far the water level fell\), which this report leaves open/,
    );
    expect(open.text).toContain('"Where the sources disagree"');
    expect(open.text).not.toMatch(/13\.8|4\.2|did not cause/);
  });

  it('says so when nothing stays open; lists at most four open questions by name', () => {
    expect(openPoints({ openQuestions: [], disputes: [] })).toEqual([
      { text: 'No question asked stays open, and the sources found do not contradict one another.', evidenceIds: [] },
    ]);
    const many = ['Who?', 'What?', 'When?', 'Where?', 'Why?', 'How?'];
    expect(openPoints({ openQuestions: many })[0]!.text).toBe(
      'The sources found do not settle these 6 questions, which stay open: "Who?"; "What?"; "When?"; "Where?", among others.',
    );
  });

  it('its check refuses a citation to evidence no section used, and a conclusion without a finding', () => {
    const bad = framer.check!(base, {
      introduction: [
        { text: 'The bridge is orange.', evidenceIds: ['E99'] },
        { text: 'Framing.', evidenceIds: [] },
      ],
      conclusion: [{ text: 'Nothing is open.', evidenceIds: [] }],
    });
    expect(bad.issues.join(' ')).toMatch(/E99/);
    expect(bad.issues.join(' ')).toMatch(/no cited finding/);
    expect(bad.cleaned!.introduction).toEqual([{ text: 'Framing.', evidenceIds: [] }]);
  });

  it.each([
    ['budget_exhausted', 'budget ran out'],
    ['max_iterations', 'maximum number of research iterations'],
    ['sufficient', 'sufficiently covered'],
    ['operator asked', 'for this reason: operator asked'],
  ])('explains the stop reason %s', (stopReason, phrase) => {
    expect(framer.offline({ ...base, stopReason }).introduction.at(-1)!.text).toContain(phrase);
  });

  it('handles a report with no written sections', () => {
    const empty = framer.offline({ ...base, sections: [], openQuestions: [] });
    expect(empty.conclusion).toEqual([]);
    expect(empty.introduction[1]!.text).toBe('The evidence gathered did not support any section of findings.');
    expect(empty.introduction.every((s) => s.evidenceIds.length === 0)).toBe(true);
  });

  it('states a narrowed scope (run interventions) in the first sentence, still with no citation', () => {
    const scoped = framer.offline({ ...base, scope: ['Only the years 2015 to 2024.', 'Costs  in dollars'] });
    expect(scoped.introduction).toHaveLength(out.introduction.length);
    expect(scoped.introduction[0]!.text).toMatch(
      / Its scope was narrowed during research to: Only the years 2015 to 2024; Costs in dollars\.$/,
    );
    expect(scoped.introduction[0]!.evidenceIds).toEqual([]);
    expect(out.introduction[0]!.text).not.toMatch(/narrowed/);
  });
});
