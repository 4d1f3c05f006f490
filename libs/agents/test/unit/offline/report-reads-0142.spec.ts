import { isBoilerplate } from '../../../src/offline/nlp/boilerplate';
import { pointsBack } from '../../../src/offline/nlp/back-reference';
import { evidenceCurator, framer, outlineArchitect } from '../../../src/roles';
import { ROLE_INPUTS } from '../../fixtures/role-inputs';
import { LAKE_QUESTION as question, LEVEL_DISPUTE } from '../../fixtures/lake-varen-disputes';

/* Issue 25 after 0138 (decision 0142): the demo's introduction stated one side of the irrigation dispute as a finding;
 * git-manual's q12 never showed what an annotated tag is; lake-varen's q13 lost the notice's water taxi to the floor. */

describe('the introduction under a disputed clause', () => {
  const sections = [
    {
      title: "What caused the decline of Lake Varen's water level?",
      sentences: [
        {
          text: 'The regional water authority attributes the decline mainly to lower rainfall and higher evaporation.',
          evidenceIds: ['E1'],
        },
      ],
    },
    {
      title: "How large was the decline of Lake Varen's water level?",
      sentences: [
        {
          text: 'Lake Varen reached its lowest level on record on 22 October 2024, at 207.55 m above sea level on the VR-01 datum.',
          evidenceIds: ['E2'],
        },
      ],
    },
  ];
  const irrigation = { sides: ['Irrigation withdrawals did not cause the decline.', 'Irrigation withdrawals caused the decline.'] };
  const findings = (disputes: { sides: string[] }[]) =>
    framer
      .offline({ ...ROLE_INPUTS.framer, question, sections, disputes })
      .introduction.filter((s) => s.evidenceIds.length > 0)
      .map((s) => s.text);

  it('states no side of a dispute about what a section asks as its finding', () => {
    expect(findings([irrigation])).toEqual([sections[1]!.sentences[0]!.text]);
  });

  it('states no finding of its own when every clause is disputed: the answer in brief is the finding', () => {
    expect(findings([irrigation, { sides: [...LEVEL_DISPUTE.sides] }])).toEqual([]);
  });

  it('states each section’s finding when nothing is disputed', () => {
    expect(findings([])).toHaveLength(2);
  });
});

describe('a manual sentence naming its options', () => {
  it('is content, not a command-line hint', () => {
    expect(
      isBoilerplate(
        'Tag objects (created with -a, -s, or -u) are called "annotated" tags; they contain a creation date, the tagger name and e-mail, a tagging message, and an optional GnuPG signature.',
      ),
    ).toBe(false);
    expect(isBoilerplate('Use -v, --verbose, or -q to change how much is printed.')).toBe(true);
  });
});

describe('a contrast with no main clause', () => {
  const text = [
    'Tag objects (created with -a, -s, or -u) are called "annotated" tags; they contain a creation date, the tagger name and e-mail, a tagging message, and an optional GnuPG signature.',
    'Whereas a "lightweight" tag is simply a name for an object (usually a commit object).',
  ].join(' ');

  it('points back: it completes the sentence before it', () => {
    expect(pointsBack('Whereas a "lightweight" tag is simply a name for an object (usually a commit object).')).toBe('Whereas');
    expect(pointsBack('Whereas the authority compares annual means, the group compares seasonal extremes.')).toBeNull();
  });

  it('is excerpted with the sentence before it', () => {
    const { fragments } = evidenceCurator.offline({
      question: 'What is a lightweight tag?',
      questions: [],
      source: { id: 's', title: 'git-tag', text },
      maxFragments: 2,
    });
    expect(fragments.filter((f) => f.excerpt.includes('Whereas')).map((f) => f.excerpt)).toEqual([text]);
  });
});

describe('a short outline', () => {
  it('keeps its on-topic claims below the floor set by one claim far above them', () => {
    const q = 'Why and when was the ferry between Varenby and Orsa Island suspended?';
    const top = {
      id: 'c0',
      statement:
        'July 2022 — The Varenby–Orsa Island ferry is suspended because the landing stage at Orsa is too shallow; the ferry between Varenby and Orsa Island is suspended.',
      questionId: 'q',
      sourceIds: ['s0'],
    };
    const rest = [
      'A passenger water taxi from Stone Quay to a floating pontoon at Orsa replaces the ferry.',
      'Tickets for the water taxi to Orsa cost the same as the former ferry fare.',
      'Dredging the Orsa landing stage would cost about 420,000 euros.',
      'A steamer service linked Varenby and Orsa from 1889 to 1958.',
      'Orsa Island lies about 3 km offshore from Varenby.',
      'The hides on Orsa Island cannot be visited this season.',
    ].map((statement, i) => ({ id: `c${i + 1}`, statement, questionId: 'q', sourceIds: [`s${i + 1}`] }));
    const out = outlineArchitect.offline({
      ...ROLE_INPUTS.outlineArchitect,
      question: q,
      questions: [{ id: 'q', text: q }],
      claims: [top, ...rest],
    });
    expect(out.sections.flatMap((s) => s.claimIds)).toEqual(expect.arrayContaining(['c0', 'c1', 'c2']));
  });
});
