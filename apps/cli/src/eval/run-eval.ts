import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ReportJson } from '@dossier/contracts';
import type { EvalReport, Judge, LoadedEvalSet, QuestionScore } from '@dossier/evals';
import { CliUsageError } from '../cli-error';
import type { DossierClient } from '@dossier/client';
import { ingestInto } from '../commands/ingest.command';
import type { Output } from '../output';
import { progressLine } from '@dossier/client';
import { runOptionsFor } from '../research/research-flags';
import { environment } from '@dossier/config';

// This module is itself loaded only by `dossier eval` (eval.command.ts): @dossier/evals is a lazy library for the CLI,
// so it is required here rather than imported (Nx forbids a static import of a library loaded lazily elsewhere).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const {
  EvalSetError,
  evalReport,
  failedQuestion,
  formatMetric,
  loadEvalSet,
  METRICS,
  openAIJudgeFromEnv,
  renderEvalReport,
  scoreQuestion,
} = require('@dossier/evals') as typeof import('@dossier/evals');

export interface EvalFlags {
  collection?: string;
  engine: 'offline' | 'openai';
  mode: 'survey' | 'interviews' | 'hybrid';
  out?: string;
  questions?: number;
}

async function load(ref: string): Promise<LoadedEvalSet> {
  try {
    return await loadEvalSet(ref);
  } catch (err) {
    // A bad set is bad input: one clear line, exit 2.
    if (err instanceof EvalSetError) throw new CliUsageError(err.message);
    throw err;
  }
}

/** One question through the same path `dossier research` takes: start the run, follow it, read its report.json. */
async function runQuestion(
  client: DossierClient,
  out: Output,
  loaded: LoadedEvalSet,
  index: number,
  flags: EvalFlags & { collection: string },
  judge: Judge | null,
  dir: string,
): Promise<QuestionScore> {
  const q = loaded.set.questions[index]!;
  const started = Date.now();
  let runId: string | null = null;
  try {
    const run = await client.start(
      q.question,
      runOptionsFor({
        collection: flags.collection,
        engine: flags.engine,
        search: ['corpus'],
        approve: 'auto',
        out: dir,
        format: ['json'],
        mode: flags.mode,
      }),
    );
    runId = run.id;
    const repeats = new Map<string, number>();
    const final = await client.follow(run.id, async ({ data }) => {
      const line = progressLine(data, repeats);
      if (line) out.progress(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s  ${line}`);
    });
    out.done();
    if (final.status !== 'completed')
      throw new Error(`run ${run.id} ended ${final.status}: ${final.failureReason ?? 'no reason recorded'}`);
    const wallMs = Date.now() - started;
    const json = (await client.report(run.id, 'json')).toString('utf8');
    const report = ReportJson.parse(JSON.parse(json));
    // Each question's own report beside the eval, to read what was (or was not) found.
    const qdir = path.join(dir, 'questions', q.id);
    await mkdir(qdir, { recursive: true });
    await writeFile(path.join(qdir, 'report.json'), json);
    await writeFile(path.join(qdir, 'report.md'), await client.report(run.id, 'md'));
    return await scoreQuestion(q, report, {
      judge,
      wallMs,
      sourceText: async (source) => {
        try {
          return (await client.sourceText(source.contentHash)).text;
        } catch {
          return null;
        }
      },
    });
  } catch (err) {
    out.done();
    const message = err instanceof Error ? err.message : String(err);
    return failedQuestion(q, runId && !message.includes(runId) ? `${message} (run ${runId})` : message, runId, Date.now() - started);
  }
}

function summary(s: QuestionScore): string {
  if (s.error) return `failed: ${s.error}`;
  return [
    `recall ${formatMetric(s.keyPointRecall, 'share')}`,
    `sources ${formatMetric(s.sourceRecall, 'share')}`,
    `traps ${s.trapHits}`,
    `support ${formatMetric(s.citationSupport, 'share')}${s.judgeSupport !== null ? ` (judge ${formatMetric(s.judgeSupport, 'share')})` : ''}`,
    `${s.words} words`,
    ...(s.lint ? [`lint ${s.lint.defects}`] : []),
    formatMetric(s.wallMs, 'ms'),
    ...(s.llmCalls > 0 ? [`${s.llmCalls} model calls, ${s.tokensIn + s.tokensOut} tokens`] : []),
  ].join(', ');
}

/**
 * `dossier eval SET`: ingests the set's corpus into the collection if it does not exist yet, runs every question
 * (or the first N) as a research run, scores each report, and writes eval.md, eval.html and eval.json.
 */
export async function runEval(client: DossierClient, out: Output, ref: string, flags: EvalFlags): Promise<EvalReport> {
  const loaded = await load(ref);
  try {
    const { set } = loaded;
    await client.checkEngine(flags.engine);
    // The judge is pinned before any run starts, so every figure of this eval comes from one model.
    const judge = flags.engine === 'openai' ? openAIJudgeFromEnv(environment()) : null;
    const collection = flags.collection ?? `eval-${set.name}`;
    const dir = path.resolve(flags.out ?? path.join('out', 'eval', set.name));
    if ((await client.collectionSize(collection)) === 0) {
      const ingested = await ingestInto(client, out, [loaded.corpusDir], collection);
      if (ingested.ingested + ingested.updated + ingested.unchanged + ingested.duplicates === 0) {
        throw new CliUsageError(`The corpus of eval set ${set.name} has no readable documents`);
      }
    } else {
      out.line(`Collection "${collection}" exists: using it as it is (pass --collection NEW to ingest the corpus afresh).`);
    }
    const count = Math.min(flags.questions ?? set.questions.length, set.questions.length);
    out.line(
      `Eval ${set.name}: ${count} of ${set.questions.length} questions, engine ${flags.engine}, collection "${collection}"` +
        (judge ? `, judge ${judge.model}` : ', citation support by the guard (no judge offline)'),
    );
    const startedAt = new Date();
    const scores: QuestionScore[] = [];
    for (let i = 0; i < count; i++) {
      const q = set.questions[i]!;
      out.line(`[${i + 1}/${count}] ${q.id}: ${q.question}`);
      const score = await runQuestion(client, out, loaded, i, { ...flags, collection }, judge, dir);
      out.line(`        ${summary(score)}`);
      scores.push(score);
    }
    const report = evalReport(set, { engine: flags.engine, collection, startedAt, judge }, scores);
    await mkdir(dir, { recursive: true });
    for (const [name, content] of Object.entries(renderEvalReport(report))) await writeFile(path.join(dir, name), content);
    out.line('');
    for (const m of METRICS) out.line(`  ${m.label.padEnd(26)} ${formatMetric(report.overall[m.key], m.format)}`);
    if (judge) out.line(`  judge model                ${judge.model}`);
    const byKind = Object.entries(report.overall.lintByKind ?? {}).filter(([, n]) => n > 0);
    if (byKind.length > 0) out.line(`  lint by kind               ${byKind.map(([k, n]) => `${k} ${n}`).join(', ')}`);
    out.line(`Eval written to ${path.join(dir, 'eval.md')}, eval.html and eval.json`);
    return report;
  } finally {
    await loaded.dispose();
  }
}
