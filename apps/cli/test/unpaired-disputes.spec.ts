import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { statesStatement } from '@dossier/agents';
import { ReportJson } from '@dossier/contracts';
import { lintReport } from '@dossier/evals';
import { createTestDatabase, sql, type TestDatabase } from '@dossier/testing';
import { cliRunner } from './cli-harness';

/*
 * Disputes in one place (issue 25 item 5, decision 0087): two sources that disagree on when something began, in words
 * the contradiction step's rules do not pair (no figure, no negation, few shared words). When the body is drafted, the
 * run's claims are compared pair by pair; neither side is stated in the body, and both are set out in "Where the
 * sources disagree".
 */

const BEGAN_WITH = 'The subsidence of Marlow Fen began in the first full year of large-scale peat extraction.';
const BEGAN_BEFORE = 'The subsidence of Marlow Fen started before large-scale peat extraction.';

const CORPUS: Record<string, string> = {
  'fen-authority-report.md': [
    '# Marlow Fen Drainage Board: subsidence report',
    '',
    'Marlow Fen is a lowland peat fen of about 40 square kilometres east of the town of Hessle.',
    '',
    BEGAN_WITH,
    '',
    'The Drainage Board measures the height of the fen surface at twelve benchmark posts every spring.',
    '',
    'Peat extraction on Marlow Fen expanded after the Hessle peat works opened its second cutting field.',
    '',
    'The Drainage Board attributes the subsidence of Marlow Fen mainly to the drainage ditches dug for peat extraction.',
  ].join('\n'),
  'fen-society-history.md': [
    '# The Marlow Fen Society: a history of the fen',
    '',
    BEGAN_BEFORE,
    '',
    'Old estate maps show the fen surface of Marlow Fen lowered by field drains cut for grazing in the nineteenth century.',
    '',
    'The Society records the subsidence of Marlow Fen at the old church causeway, which now stands above the fields.',
    '',
    'Grazing drains on Marlow Fen were deepened several times to keep the pastures dry.',
  ].join('\n'),
  'fen-visitor-guide.md': [
    '# Visiting Marlow Fen',
    '',
    'Marlow Fen is home to bitterns, marsh harriers and a large colony of reed warblers.',
    '',
    'The subsidence of Marlow Fen can be seen at the Holme post, an iron column driven into the peat to its base.',
    '',
    'The boardwalk across Marlow Fen was rebuilt after subsidence tilted its old supports.',
  ].join('\n'),
};

describe('two sources that disagree without a contradiction the run recorded: neither side in the body (offline, end to end)', () => {
  let db: TestDatabase;
  let report: ReportJson;
  const corpus = mkdtempSync(path.join(tmpdir(), 'dossier-disputes-corpus-'));
  const out = mkdtempSync(path.join(tmpdir(), 'dossier-disputes-out-'));
  const said = (text: string, side: string) => statesStatement(text, side);

  beforeAll(async () => {
    mkdirSync(corpus, { recursive: true });
    for (const [name, text] of Object.entries(CORPUS)) writeFileSync(path.join(corpus, name), text);
    db = await createTestDatabase();
    const result = await cliRunner(db)([
      'research',
      'When did the subsidence of Marlow Fen begin, and what caused it?',
      '--corpus',
      corpus,
      '--collection',
      'fen',
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

  it('the run holds both positions as claims, and the contradiction step did not pair them', async () => {
    const claims = await sql<{ statement: string }>(db.url, 'SELECT statement FROM claims');
    expect(claims.some((c) => said(c.statement, BEGAN_WITH))).toBe(true);
    expect(claims.some((c) => said(c.statement, BEGAN_BEFORE))).toBe(true);
    const pairs = await sql<{ a: string; b: string }>(
      db.url,
      'SELECT a.statement AS a, b.statement AS b FROM contradictions c JOIN claims a ON a.id = c.claim_a_id JOIN claims b ON b.id = c.claim_b_id',
    );
    const onset = (s: string) => said(s, BEGAN_WITH) || said(s, BEGAN_BEFORE);
    expect(pairs.filter((p) => onset(p.a) && onset(p.b))).toEqual([]);
  });

  it('neither side is a sentence of the body; both are set out together in "Where the sources disagree"', () => {
    const body = report.sections
      .filter((s) => s.kind === 'body')
      .flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => x.text)));
    expect(body.length).toBeGreaterThan(0);
    for (const side of [BEGAN_WITH, BEGAN_BEFORE]) expect(body.filter((t) => said(t, side))).toEqual([]);
    const disputes = report.sections.find((s) => s.kind === 'contradictions');
    const entry = disputes?.paragraphs.find((p) => p.sentences.some((x) => said(x.text, BEGAN_WITH)));
    expect(entry?.sentences.some((x) => said(x.text, BEGAN_BEFORE))).toBe(true);
    expect(lintReport(report).defects.filter((d) => d.kind === 'dispute-in-body')).toEqual([]);
  });
});
