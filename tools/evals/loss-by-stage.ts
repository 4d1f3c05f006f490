/**
 * Where each missed key point of an eval run is lost (decisions 0111, 0131, 0137): the first stage of the run that does
 * not hold it in the set's words, by the eval's own matching rule (`normalize`, `phrasingMatches`).
 *   not excerpted     — no sentence of any evidence excerpt of the run states it (retrieval or the curator);
 *   no claim          — an excerpt states it, no claim has that excerpt as evidence;
 *   not outlined      — a claim's evidence states it, the claim is in no section of the final outline;
 *   not written       — an outlined claim's evidence states it, no report sentence does.
 * Reads the eval's report.json files (their run ids) and the run rows of DATABASE_URL (the database the eval ran on).
 * Usage: node -r ./tools/ts-register.cjs tools/evals/loss-by-stage.ts <set> <eval out dir> [--json]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { normalize, phrasingMatches } from '@dossier/evals';

interface KeyPoint {
  fact: string;
  phrasings: string[];
}
interface SetQuestion {
  id: string;
  keyPoints: KeyPoint[];
}

export type Stage = 'found' | 'not excerpted' | 'no claim' | 'not outlined' | 'not written';

/** Sentences of a text as the eval's set checker splits them: at sentence ends and blank lines. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n\s*\n/)
    .map(normalize)
    .filter((s) => s !== '');
}

function states(k: KeyPoint, texts: readonly string[]): boolean {
  return texts.some((t) => sentences(t).some((s) => k.phrasings.some((p) => phrasingMatches(p, s))));
}

interface ReportSentence {
  text: string;
}
interface ReportFile {
  runId: string;
  sections: { paragraphs: { sentences: ReportSentence[] }[] }[];
}

async function main(): Promise<void> {
  const [setName, outDir] = process.argv.slice(2);
  if (!setName || !outDir) throw new Error('usage: loss-by-stage.ts <set> <eval out dir> [--json]');
  const set = JSON.parse(readFileSync(path.join('evals/sets', setName, 'set.json'), 'utf8')) as { questions: SetQuestion[] };
  const db = new Client({ connectionString: process.env['DATABASE_URL'] });
  await db.connect();
  const rows: { question: string; fact: string; stage: Stage }[] = [];
  try {
    for (const q of set.questions) {
      const file = path.join(outDir, 'questions', q.id, 'report.json');
      if (!existsSync(file)) continue;
      const report = JSON.parse(readFileSync(file, 'utf8')) as ReportFile;
      const written = report.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((t) => t.text)));
      const excerpts = (await db.query<{ excerpt: string }>('select excerpt from evidence_fragments where run_id = $1', [report.runId]))
        .rows;
      const claims = (
        await db.query<{ id: string; excerpt: string }>(
          `select c.id, e.excerpt from claims c join claim_evidence ce on ce.claim_id = c.id
           join evidence_fragments e on e.id = ce.evidence_id where c.run_id = $1`,
          [report.runId],
        )
      ).rows;
      const outline = (
        await db.query<{ claim_ids: string[] }>(
          `select claim_ids from outline_sections where run_id = $1
           and revision = (select max(revision) from outline_sections where run_id = $1)`,
          [report.runId],
        )
      ).rows;
      const outlined = new Set(outline.flatMap((s) => s.claim_ids));
      for (const k of q.keyPoints) {
        let stage: Stage;
        if (states(k, written)) stage = 'found';
        else if (
          !states(
            k,
            excerpts.map((e) => e.excerpt),
          )
        )
          stage = 'not excerpted';
        else if (
          !states(
            k,
            claims.map((c) => c.excerpt),
          )
        )
          stage = 'no claim';
        else if (
          !states(
            k,
            claims.filter((c) => outlined.has(c.id)).map((c) => c.excerpt),
          )
        )
          stage = 'not outlined';
        else stage = 'not written';
        rows.push({ question: q.id, fact: k.fact, stage });
      }
    }
  } finally {
    await db.end();
  }
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  const stages: Stage[] = ['found', 'not excerpted', 'no claim', 'not outlined', 'not written'];
  for (const stage of stages) {
    const at = rows.filter((r) => r.stage === stage);
    const by = new Map<string, number>();
    for (const r of at) by.set(r.question, (by.get(r.question) ?? 0) + 1);
    const list = [...by].map(([q, n]) => (n > 1 ? `${q} ×${n}` : q)).join(', ');
    process.stdout.write(`${stage.padEnd(14)} ${String(at.length).padStart(3)}  ${stage === 'found' ? '' : list}\n`);
  }
  process.stdout.write('\n');
  for (const r of rows.filter((x) => x.stage !== 'found')) process.stdout.write(`${r.question}  ${r.stage.padEnd(14)} ${r.fact}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
