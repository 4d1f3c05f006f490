import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { proseFault } from '@dossier/agents';
import { ReportJson } from '@dossier/contracts';
import { lintReport } from '@dossier/evals';
import { createTestDatabase, sql, type TestDatabase } from '@dossier/testing';
import { cliRunner, type CliResult } from './cli-harness';

/*
 * What a reader should never see (issue 25 item 2, decision 0046): a corpus whose documents carry a list lead-in, a
 * byline, a self-description, a code example, a bug-report line and "[citation needed]" markers. None of them reaches
 * the report as prose, on any path (body, introduction, conclusion, disagreements); a marked sentence is shown without
 * its marker while its evidence excerpt stays the verbatim slice of its snapshot.
 */

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

const PLANTED = [
  'Three reasons for the closure of the bridge are commonly given',
  'Tamsel County Council, Bridges Section',
  'This note explains',
  'bridgectl read',
  'read with this command',
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
      'Why was the Orrin Bridge closed, and how long will it stay closed?',
      '--corpus',
      corpus,
      '--collection',
      'orrin',
      '--out',
      out,
      '--format',
      'json',
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
    for (const s of cited) expect({ text: s.text, fault: proseFault(s.text) }).toEqual({ text: s.text, fault: null });
    for (const s of sentences) for (const planted of PLANTED) expect(s.text).not.toContain(planted);
    const lint = lintReport(report);
    expect(lint.defects.filter((d) => d.kind === 'fragment' || d.kind === 'boilerplate' || d.kind === 'leaked')).toEqual([]);
  });

  it('shows a marked sentence without its marker; every cited excerpt is still the verbatim slice of its snapshot', async () => {
    const snapshots = await sql<{ content_hash: string; text: string }>(db.url, 'SELECT content_hash, text FROM source_snapshots');
    const byHash = new Map(snapshots.map((s) => [s.content_hash, s.text]));
    for (const e of Object.values(report.evidence)) {
      expect(byHash.get(report.sources[e.sourceId]!.contentHash)?.slice(e.start, e.end)).toBe(e.excerpt);
    }
    const closed = report.sections
      .flatMap((s) => s.paragraphs.flatMap((p) => p.sentences))
      .find((s) => s.text.startsWith('The Orrin Bridge was closed to traffic on 4 April 2024'));
    expect(closed?.text).toBe(
      'The Orrin Bridge was closed to traffic on 4 April 2024 after engineers found corrosion in its main arch bearings.',
    );
    expect(closed!.evidenceIds.some((id) => report.evidence[id]!.excerpt.includes('[citation needed]'))).toBe(true);
  });
});
