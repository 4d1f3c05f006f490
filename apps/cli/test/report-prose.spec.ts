import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAINTENANCE_MARKER, proseFault } from '@dossier/agents';
import { ReportJson } from '@dossier/contracts';
import { lintReport } from '@dossier/evals';
import { createTestDatabase, sql, type TestDatabase } from '@dossier/testing';
import { cliRunner, type CliResult } from './cli-harness';

/*
 * What a reader should never see (issue 25 item 2, decisions 0046, 0102, 0108): a corpus whose documents (markdown,
 * plain text) carry a list lead-in, a byline, a self-description, code examples, a bug-report line and "[citation
 * needed]" markers. None of them reaches the report as prose, on any path (body, introduction, conclusion,
 * disagreements); a list's lead-in is joined with its items into one cited sentence, or left out with them; code is shown
 * as a code block under the sentence that introduces it, cited, in report.json, report.md and report.html; a marked
 * sentence is shown without its marker while its evidence excerpt stays the verbatim slice of its snapshot.
 */

// A shell session as a log keeps it: its output lines ("bearing NW  strain 412  corroded") are no code one by one.
const SESSION = [
  '$ bridgectl bearings --bridge orrin',
  'bearing NW  strain 412  corroded',
  'bearing NE  strain 398  corroded',
  '$ bridgectl status --bridge orrin',
  'closed since 2024-04-04  [...]',
];

const CORPUS: Record<string, string> = {
  'encyclopedia-orrin-bridge.md': [
    '# Orrin Bridge',
    '',
    'The Orrin Bridge is a steel arch bridge over the Tamsel River in Keldby, opened to traffic in 1962.',
    '',
    'The Orrin Bridge carried about 21,000 vehicles a day before its closure in April 2024.[citation needed]',
    '',
    'The closure of the Orrin Bridge is disputed.[citation needed] Three reasons for the closure of the bridge are commonly given:',
    '',
    '- corrosion of the main arch bearings of the bridge, found in the 2023 inspection;',
    '- the failed load test of the Orrin Bridge in March 2024;',
    '- the cost of the repair programme for the bridge.',
    '',
    'The Orrin Bridge was closed to traffic on 4 April 2024 after engineers found corrosion in its main arch bearings.[citation needed]',
  ].join('\n'),
  'technical-note-orrin-bridge.md': [
    '# Technical Note BN-4: Inspecting the Orrin Bridge',
    '',
    'This note explains how the Orrin Bridge is inspected and why the Orrin Bridge was closed in April 2024.',
    '',
    'Tamsel County Council, Bridges Section.',
    '',
    'The 2023 inspection found corrosion in four of the six main arch bearings of the Orrin Bridge.',
    '',
    'The load sensors of the Orrin Bridge record three readings:',
    '',
    '- the strain in each main arch bearing;',
    '- the deflection of the deck under traffic load;',
    '- the temperature of the steel arch.',
    '',
    'The load sensors of the Orrin Bridge are read with this command:',
    '',
    '```',
    '$ bridgectl read --sensor all --bridge orrin --since 2024-04-04',
    '```',
    '',
    'The Orrin Bridge will stay closed for 18 months while its bearings are replaced, according to the council.',
    '',
    'Bug reports about the closure of the Orrin Bridge should be sent to the council bridges mailing list.',
  ].join('\n'),
  // Code in plain text: a shell session line under the sentence introducing it.
  'orrin-bridge-log.txt': [
    'Orrin Bridge inspection log',
    '',
    'The corroded bearings of the Orrin Bridge were photographed during the closure in April 2024.',
    '',
    'The inspection photographs of the closed Orrin Bridge are copied with this command:',
    '',
    '$ bridgectl photos --bridge orrin --since 2024-04-04 --out ./closure',
    '',
    // A shell session: prompts with the lines they printed, none of which looks like code alone (decision 0146).
    'The bearing strain of the closed Orrin Bridge is read by the load sensors in a session like this one:',
    '',
    ...SESSION,
    '',
    'The Orrin Bridge stays closed until the corroded bearings are replaced, the inspectors wrote.',
  ].join('\n'),
  'news-orrin-bridge.md': [
    '# Orrin Bridge to stay closed until October 2025',
    '',
    'By Mara Feld, Transport Correspondent.',
    '',
    'The council said the Orrin Bridge will reopen in October 2025, 18 months after its closure in April 2024.',
    '',
    'The repair of the Orrin Bridge bearings will cost 12 million euros, the council said on Tuesday.',
  ].join('\n'),
};

// Never in a sentence's text (a lead-in joined with its list is checked apart; code is only ever a sentence's `code`).
const PLANTED = [
  'Tamsel County Council, Bridges Section',
  'This note explains',
  'bridgectl',
  'Bug reports',
  'By Mara Feld',
  '[citation needed]',
];

describe('boilerplate and fragments never reach a report (offline, end to end)', () => {
  let db: TestDatabase;
  let result: CliResult;
  let report: ReportJson;
  const corpus = mkdtempSync(path.join(tmpdir(), 'dossier-prose-corpus-'));
  const out = mkdtempSync(path.join(tmpdir(), 'dossier-prose-out-'));

  beforeAll(async () => {
    mkdirSync(corpus, { recursive: true });
    for (const [name, text] of Object.entries(CORPUS)) writeFileSync(path.join(corpus, name), text);
    db = await createTestDatabase();
    result = await cliRunner(db)([
      'research',
      'Why was the Orrin Bridge closed, how long will it stay closed, and how are its load sensors read?',
      '--corpus',
      corpus,
      '--collection',
      'orrin',
      '--out',
      out,
      '--format',
      'md,html,json',
    ]);
    if (result.code !== 0) throw new Error(`dossier research exited ${result.code}:\n${result.output.slice(-4000)}`);
    report = ReportJson.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('states findings, and no sentence of any section is boilerplate, a fragment or a planted line', () => {
    const sentences = report.sections.filter((s) => s.kind !== 'method').flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
    const cited = sentences.filter((s) => s.evidenceIds.length > 0);
    expect(cited.map((s) => s.text).join(' ')).toMatch(/corrosion/);
    // A sentence introducing the code shown under it is read as the statement it is (decision 0102).
    const read = (s: { text: string; code?: string }) => (s.code ? s.text.replace(/:\s*$/, '.') : s.text);
    for (const s of cited) expect({ text: s.text, fault: proseFault(read(s)) }).toEqual({ text: s.text, fault: null });
    for (const s of sentences) for (const planted of PLANTED) expect(s.text).not.toContain(planted);
    const lint = lintReport(report);
    expect(lint.defects.filter((d) => d.kind === 'fragment' || d.kind === 'boilerplate' || d.kind === 'leaked')).toEqual([]);
  });

  it('joins a list lead-in with its items into one cited sentence, and shows code as code under the sentence that introduces it (json, md, html)', () => {
    const sentences = report.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
    // A lead-in is never alone: it ends a sentence that holds its items, or it introduces code shown under it.
    for (const s of sentences)
      if (/:\s*$/.test(s.text)) expect({ text: s.text, code: s.code ?? null }).toEqual({ text: s.text, code: expect.any(String) });
    // Each list: joined with its lead-in into one cited sentence, or left out with it; never an item or the lead-in alone.
    const lists = [
      {
        leadIn: 'commonly given',
        items: ['corrosion of the main arch bearings of the bridge, found', 'the failed load test of the Orrin Bridge in March'],
        joined:
          'Three reasons for the closure of the bridge are commonly given: corrosion of the main arch bearings of the bridge, found in the 2023 inspection; the failed load test of the Orrin Bridge in March 2024; the cost of the repair programme for the bridge.',
      },
      {
        leadIn: 'record three readings',
        items: ['the strain in each main arch bearing', 'the deflection of the deck under traffic load'],
        joined:
          'The load sensors of the Orrin Bridge record three readings: the strain in each main arch bearing; the deflection of the deck under traffic load; the temperature of the steel arch.',
      },
    ];
    for (const list of lists)
      for (const s of sentences.filter((x) => x.text.includes(list.leadIn) || list.items.some((i) => x.text.includes(i)))) {
        expect(s.text).toBe(list.joined);
        expect(s.evidenceIds.length).toBeGreaterThan(0);
      }
    // The readings the question asks about are in the report, as the one joined sentence.
    expect(sentences.map((s) => s.text)).toContain(lists[1]!.joined);
    // The code: the sensors' command under the sentence introducing it, cited, verbatim from the cited excerpt.
    const withCode = sentences.filter((s) => s.code);
    expect(withCode.map((s) => s.code)).toContain('$ bridgectl read --sensor all --bridge orrin --since 2024-04-04');
    // A shell session with its output is one block under its lead-in, never a sentence (decision 0146: git-manual's
    // gitignore session was quoted as the sentence "*.[oa] $ cat Documentation/.gitignore # ignore generated html files, …").
    expect(withCode.map((s) => s.code)).toContain(SESSION.join('\n'));
    for (const s of withCode) {
      expect(s.text).toMatch(/(?:with this command|in a session like this one):$/);
      expect(s.evidenceIds.length).toBeGreaterThan(0);
      expect(s.evidenceIds.some((id) => report.evidence[id]!.excerpt.includes(s.code!))).toBe(true);
    }
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    const escaped = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    for (const s of withCode) {
      // Markdown: the sentence (with its citation marks), then a fenced block holding the code.
      const at = md.indexOf(s.text.slice(0, 40));
      expect(at).toBeGreaterThan(-1);
      expect(md.slice(at)).toMatch(new RegExp(`^[^\\n]*\\n\\n\`\`\`\\n${s.code!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n\`\`\``));
      // HTML: the code in a block after the sentence's own text.
      const sentenceAt = html.indexOf(escaped(s.text.slice(0, 40)));
      expect(sentenceAt).toBeGreaterThan(-1);
      expect(html.slice(sentenceAt)).toContain(`<pre class="code"><code>${escaped(s.code!)}</code></pre>`);
    }
    // No code line is prose: nowhere outside a code block (nor in the HTML outside <pre>), before the evidence list.
    expect(md.replace(/```[\s\S]*?```/g, '').split('## Evidence')[0]!).not.toMatch(/bridgectl/);
    // (The HTML's text, tags and their attributes aside: a citation's tooltip quotes its excerpt.)
    const htmlText = html
      .split(/<h2[^>]*>Evidence/)[0]!
      .replace(/<pre class="code">[\s\S]*?<\/pre>/g, '')
      .replace(/<[^>]*>/g, '');
    expect(htmlText).not.toMatch(/bridgectl/);
  });

  it('leaves out what its own source flags ("[citation needed]"): no such report sentence, no such evidence; every cited excerpt is the verbatim slice of its snapshot', async () => {
    const snapshots = await sql<{ content_hash: string; text: string }>(db.url, 'SELECT content_hash, text FROM source_snapshots');
    const byHash = new Map(snapshots.map((s) => [s.content_hash, s.text]));
    for (const e of Object.values(report.evidence)) {
      expect(byHash.get(report.sources[e.sourceId]!.contentHash)?.slice(e.start, e.end)).toBe(e.excerpt);
      // 0046 showed such a sentence without its marker, above evidence that still read "[citation needed]" (0165).
      expect(e.excerpt).not.toMatch(MAINTENANCE_MARKER);
    }
    const texts = report.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences)).map((s) => s.text);
    for (const flagged of [
      'carried about 21,000 vehicles a day',
      'The closure of the Orrin Bridge is disputed',
      'closed to traffic on 4 April 2024',
    ])
      expect(texts.filter((t) => t.includes(flagged))).toEqual([]);
    // Why the bridge closed is still answered, by the sentences their sources stand behind.
    expect(texts.join(' ')).toMatch(/reasons for the closure of the bridge are commonly given: corrosion of the main arch bearings/);
  });
});
