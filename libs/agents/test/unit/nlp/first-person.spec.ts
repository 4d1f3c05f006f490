import { attributed, documentVoice, isFirstPerson, isMethodStatement } from '../../../src/offline/nlp/first-person';
import { readerSentence } from '../../../src/offline/nlp/prose-faults';
import { evidenceCurator, sectionWriter } from '../../../src/roles';

describe('first-person source sentences (decision 0102)', () => {
  it('names a document author from its title or byline, in lower case, or nothing', () => {
    expect(documentVoice("# Position Statement\n\nTessel Plain Growers' Association (TPGA). Adopted on 3 October 2023.\n\nText.")).toBe(
      "the growers' association",
    );
    expect(documentVoice('Irrigation and Regulation\nEskerford University Hydrology Group, Working Paper 23-07.\nAbstract')).toBe(
      'the hydrology group',
    );
    expect(documentVoice('# Kessmark Regional Water Authority — Annual Water Resources Report 2024\n\nChapter 4.')).toBe(
      'the water authority',
    );
    expect(
      documentVoice('# An Interview with Dr. Ilse Marren\n\nFrom Kessmark Quarterly. Interview by Lena Voss.\n\nShe leads a Group.'),
    ).toBeNull();
  });

  it('names only an organisation that writes: not one addressed, worked with or read; a company by its kind (decision 0168)', () => {
    // Hesker's statement read the safety office's report: its "we" is Hesker's, never the office's.
    expect(
      documentVoice(
        "# Statement on VB-36 battery packs\n\n*Hesker Cell Industries, Korva — 9 June 2025*\n\nHesker Cell Industries has read the National Product Safety Office's technical investigation report.",
      ),
    ).toBe('the company');
    expect(
      documentVoice(
        '# Arvenna Mobility Announces Voluntary Recall\n\n*Arvenna Mobility — press release, 12 February 2025*\n\nBRANNHOLM — Arvenna Mobility today announced a recall, in cooperation with the National Product Safety Office (NPSO).',
      ),
    ).toBeNull();
    expect(
      documentVoice(
        "Submission to the Independent Review Panel on Lake Varen\nTessel Plain Growers' Association (TPGA), 14 March 2025.\nSubmitted by Jonas Bremer.",
      ),
    ).toBe("the growers' association");
    expect(
      documentVoice(
        'Test Report OTL-25-0412\nOstvik Test Laboratories, Battery Section.\nCommissioned by the Consumer Council of Norland.',
      ),
    ).toBe('the test laboratories');
    // The first sentence after the byline names its writer as its subject.
    expect(
      documentVoice('# Fish are back\n\nRadio News, 19 March 2024\n\nThe Kessmark Regional Water Authority says the fish have recovered.'),
    ).toBe('the water authority');
  });

  it('attributes a first-person sentence to its source in our words, or leaves it out', () => {
    const v = 'the hydrology group';
    expect(attributed('We find that irrigation explains about 60% of the storage deficit.', v)).toBe(
      'The hydrology group finds that irrigation explains about 60% of the storage deficit.',
    );
    expect(attributed('Our balance model attributes one quarter of the deficit to abstraction.', 'the water authority')).toBe(
      "The water authority's balance model attributes one quarter of the deficit to abstraction.",
    );
    expect(attributed('We construct a water balance from gauges, and attribute the decline to climate.', v)).toBe(
      'The hydrology group constructs a water balance from gauges, and attributes the decline to climate.',
    );
    expect(attributed('Readers should note that our headline figure of 6.1 m compares seasonal extremes.', v)).toBe(
      "Readers should note that the hydrology group's headline figure of 6.1 m compares seasonal extremes.",
    );
    expect(attributed('Our conclusion differs: (i) we include canal losses; (ii) our series includes upland stations.', v)).toBe(
      "The hydrology group's conclusion differs: (i) it includes canal losses; (ii) its series includes upland stations.",
    );
    // No author, one person speaking, or a clause that refers back to a sentence not quoted: left out.
    expect(attributed('We find that irrigation explains the decline.', null)).toBeNull();
    expect(attributed('I think ours is more relevant to people who live by the lake.', v)).toBeNull();
    expect(attributed('We believe these two factors together explain nearly all of the decline.', v)).toBeNull();
    expect(attributed('The US reported 4.2 m.', v)).toBe('The US reported 4.2 m.');
    expect(isFirstPerson('Part I of the report covers the lake.')).toBe(false);
  });

  it("quotes a transcript's line as its speaker's words; a note's label is no speaker", () => {
    expect(attributed('HARTVIK: We first received a report of a pack overheating in March 2024.', null)).toBe(
      'Hartvik said: “We first received a report of a pack overheating in March 2024.”',
    );
    expect(attributed('KARL BRANDT: Our crews have been to nine fires.', 'the podcast')).toBe(
      'Karl Brandt said: “Our crews have been to nine fires.”',
    );
    // Not first person: the speaker's words too, not the transcript's label (decision 0168); a label that is no
    // speaker, or a line without a label: as before.
    expect(attributed('BRANDT: Almost all of them started during charging.', null)).toBe(
      'Brandt said: “Almost all of them started during charging.”',
    );
    expect(attributed('NOTE: The newer API is faster.', null)).toBe('NOTE: The newer API is faster.');
    // A reply to the line before says nothing alone, quoted or not.
    expect(attributed('HARTVIK: Which is exactly what the firmware update addresses.', null)).toBeNull();
    expect(attributed('HARTVIK: This is why we recalled the packs.', null)).toBeNull();
    expect(attributed('NOTE: We recommend the newer API.', null)).toBeNull();
    expect(attributed('We took it seriously, we collected packs.', null)).toBeNull();
  });

  it("leaves a quoted speaker's first person alone: it is theirs, and the quotation is verbatim (decision 0168)", () => {
    const quote = '"The safety of our riders comes first, always," said Lena Hartvik, Chief Executive Officer of Arvenna Mobility.';
    expect(attributed(quote, 'the safety office')).toBe(quote);
    expect(attributed('“We are acting out of caution,” the chief executive said.', 'the company')).toBe(
      '“We are acting out of caution,” the chief executive said.',
    );
    // Outside the quotation, the first person is the source's, as before.
    expect(attributed('We quote the minister: "the lake is low".', 'the hydrology group')).toBe(
      'The hydrology group quotes the minister: "the lake is low".',
    );
  });

  it('knows a method statement from a finding', () => {
    expect(isMethodStatement('The hydrology group constructs a monthly water balance for Lake Varen.')).toBe(true);
    expect(isMethodStatement('We combined three independent records to build a water balance.')).toBe(true);
    expect(isMethodStatement("The water authority's balance model attributes one quarter of the deficit to abstraction.")).toBe(false);
    expect(isMethodStatement('The hydrology group finds that irrigation explains about 60% of the deficit.')).toBe(false);
  });

  // 0138 replaces 0105's date-dash form (a chronology's line standing in a paragraph): the date follows the statement.
  it('shows a timeline entry as its statement with the date after it, not as a present-tense prose sentence (0105, 0138)', () => {
    expect(readerSentence('9 June 2014 — The Kessmark Regional Water Authority (KRWA) grants abstraction licences for a canal.')).toBe(
      'The Kessmark Regional Water Authority (KRWA) grants abstraction licences for a canal (9 June 2014).',
    );
    expect(readerSentence('March 2016 — Water first flows through the Tessel Canal.')).toBe(
      'Water first flows through the Tessel Canal (March 2016).',
    );
    expect(readerSentence('The lake fell — sharply — in 2015.')).toBe('The lake fell — sharply — in 2015.');
  });
});

describe('list lead-ins and code examples (decision 0102)', () => {
  const markdown = [
    '# Orrin Bridge',
    '',
    'The closure of the Orrin Bridge is disputed.[citation needed] Three reasons for the closure of the Orrin Bridge are commonly given:',
    '',
    '- corrosion of the main arch bearings, found in the 2023 inspection;',
    '- the failed load test of March 2024;',
    '- the cost of the repair programme.',
    '',
    'The load sensors of the Orrin Bridge are read with this command:',
    '',
    '$ bridgectl read --sensor all --bridge orrin',
    '',
    'The Orrin Bridge was closed to traffic on 4 April 2024 after engineers found corrosion.',
  ].join('\n');

  it('the curator excerpts a lead-in with its list of clauses, or with its code, as one fragment stating what a reader sees (decision 0108)', () => {
    const { fragments } = evidenceCurator.offline({
      question: 'Why was the Orrin Bridge closed, and how are its load sensors read?',
      questions: [],
      source: { id: 'S1', title: 'Orrin Bridge', text: markdown },
      maxFragments: 10,
    });
    const list = fragments.find((f) => f.excerpt.startsWith('Three reasons'));
    expect(list?.statement).toBe(
      'Three reasons for the closure of the Orrin Bridge are commonly given: corrosion of the main arch bearings, found in the 2023 inspection; the failed load test of March 2024; the cost of the repair programme.',
    );
    expect(list?.excerpt).toMatch(/the cost of the repair programme\.$/);
    const code = fragments.find((f) => f.excerpt.startsWith('The load sensors'));
    expect(code?.statement).toBe('The load sensors of the Orrin Bridge are read with this command:');
    expect(code?.excerpt).toMatch(/\$ bridgectl read --sensor all --bridge orrin$/);
    for (const f of fragments) expect(markdown.slice(f.start, f.end)).toBe(f.excerpt);
    // No item, no lead-in and no code line is a fragment of its own.
    expect(fragments.filter((f) => /^(?:- |\$ )|commonly given:$/.test(f.excerpt))).toEqual([]);
  });

  it('joins an HTML page’s list with its lead-in: its items, stored with a bullet each, are items (decision 0132)', () => {
    // As html-to-text stores a <ul> of <li>s: a paragraph each, opened with "• ".
    const text = [
      'The reset command of git moves the branch head in one of three modes:',
      '',
      '\u2022 soft, which leaves the index and the working tree of the reset untouched',
      '',
      '\u2022 mixed, which resets the index of the reset but not the working tree',
      '',
      '\u2022 hard, which resets the index and the working tree of the reset',
    ].join('\n');
    const { fragments } = evidenceCurator.offline({
      question: 'What do the modes of git reset do to the index and the working tree?',
      questions: [],
      source: { id: 'S1', title: 'git-reset', text },
      maxFragments: 10,
    });
    expect(fragments.map((f) => f.statement)).toEqual([
      'The reset command of git moves the branch head in one of three modes: soft, which leaves the index and the working tree of the reset untouched; mixed, which resets the index of the reset but not the working tree; hard, which resets the index and the working tree of the reset.',
    ]);
  });

  it('the curator leaves a list whose items are sentences as it was: each item its own candidate, no joined excerpt', () => {
    const text = [
      'Figures for the decline of Lake Varen differ between sources:',
      '',
      '- The water authority reports that the level of Lake Varen fell by 4.2 metres between 2015 and 2024.',
      '- The university reports that the level of Lake Varen fell by 6.1 metres between 2015 and 2024.',
    ].join('\n');
    const { fragments } = evidenceCurator.offline({
      question: 'How far did the level of Lake Varen fall between 2015 and 2024?',
      questions: [],
      source: { id: 'S1', title: 'Lake Varen', text },
      maxFragments: 10,
    });
    expect(fragments.map((f) => f.statement)).toEqual([
      'The water authority reports that the level of Lake Varen fell by 4.2 metres between 2015 and 2024.',
      'The university reports that the level of Lake Varen fell by 6.1 metres between 2015 and 2024.',
    ]);
  });

  it('the writer joins the list into one cited sentence, never the items or the lead-in alone', () => {
    const list = markdown.slice(markdown.indexOf('Three reasons'), markdown.indexOf('\n\nThe load sensors'));
    const code = markdown.slice(markdown.indexOf('The load sensors'), markdown.indexOf('\n\nThe Orrin Bridge was'));
    const { paragraphs } = sectionWriter.offline({
      section: { title: 'Closure', purpose: '' },
      claims: [
        { id: 'C1', statement: 'Three reasons for the closure of the Orrin Bridge are commonly given.', evidenceIds: ['E1'] },
        { id: 'C2', statement: 'The load sensors of the Orrin Bridge are read with this command.', evidenceIds: ['E2'] },
      ],
      evidence: [
        { id: 'E1', excerpt: list },
        { id: 'E2', excerpt: code },
      ],
    });
    expect(paragraphs.flatMap((p) => p.sentences.map((s) => s.text))).toEqual([
      'Three reasons for the closure of the Orrin Bridge are commonly given: corrosion of the main arch bearings, found in the 2023 inspection; the failed load test of March 2024; the cost of the repair programme.',
      'The load sensors of the Orrin Bridge are read with this command:',
    ]);
  });
});
