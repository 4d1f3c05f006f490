import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { openAIConfigFromEnv } from '@dossier/agents';
import { RunEventData, type GateName, type RunOptionsInput } from '@dossier/contracts';
import { ResearchRepository, RunEventRepository, RunRepository } from '@dossier/db';
import { RunCommands } from '@dossier/workflow';
import type { CliContext } from '../cli-context';
import { CliUsageError } from '../cli-error';
import type { Output } from '../output';
import { ingest } from './ingest.command';

export interface ResearchArgs {
  question: string;
  corpus?: string[];
  collection: string;
  out: string;
  engine: 'offline' | 'openai';
  /** Search providers: corpus, searxng, tavily, brave (web ones need their key or URL in the environment). */
  search: string[];
  perspectives?: number;
  maxIterations?: number;
  approve: 'auto' | 'prompt';
  budgets?: { tokens?: number; costUsd?: number; wallTimeMs?: number };
}

/** Runs one research job in this process and writes report.md, report.html and report.json to `out`. */
/** The run options the research flags ask for (local mode and the gateway client send the same). */
export function runOptionsFor(args: ResearchArgs): RunOptionsInput {
  const gate = args.approve === 'prompt' ? 'required' : 'auto';
  return {
    engine: args.engine,
    searchProviders: args.search,
    ...(args.search.includes('corpus') ? { collection: args.collection } : {}),
    gates: { plan: gate, outline: gate, publish: 'auto' },
    ...(args.perspectives ? { perspectives: args.perspectives } : {}),
    ...(args.maxIterations ? { maxIterations: args.maxIterations } : {}),
    ...(args.budgets && Object.keys(args.budgets).length > 0 ? { budgets: args.budgets } : {}),
  };
}

export async function research(ctx: CliContext, out: Output, args: ResearchArgs): Promise<string> {
  if (!args.question.trim()) throw new CliUsageError('The question is empty: say what to research, e.g. dossier research "What caused …?"');
  // Fail before ingesting anything, naming what is missing (the workers would refuse the run the same way).
  if (args.engine === 'openai') openAIConfigFromEnv(process.env);
  if (args.corpus?.length) {
    const report = await ingest(ctx, out, args.corpus, args.collection);
    if (report.ingested + report.updated + report.unchanged + report.duplicates === 0) {
      throw new CliUsageError(`The corpus at ${args.corpus.join(', ')} has no readable documents (md, txt, html, pdf)`);
    }
  }
  const docs = await ctx.prisma.document.count({ where: { tenantId: ctx.tenantId, collection: { name: args.collection } } });
  if (docs === 0 && args.search.includes('corpus'))
    throw new CliUsageError(
      `Collection "${args.collection}" is empty: ingest documents first (dossier ingest PATH --collection ${args.collection}) or pass --corpus PATH`,
    );

  const options = runOptionsFor(args);
  const commands = ctx.app.get(RunCommands);
  const run = await commands.start({ tenantId: ctx.tenantId, question: args.question, options, actor: 'cli' });
  out.line(`Run ${run.id}: ${args.question}`);
  const status = await follow(ctx, out, run.id, args.approve);
  if (status !== 'completed') {
    const failed = await ctx.app.get(RunRepository).find(ctx.tenantId, run.id);
    throw new CliUsageError(`Run ${run.id} ended ${status}: ${failed?.failureReason ?? 'no reason recorded'}`);
  }
  await writeReport(ctx, run.id, args.out);
  out.line(`Report written to ${path.join(args.out, 'report.md')}, report.html and report.json`);
  return run.id;
}

/**
 * Continues a run whose process stopped (crash, kill, laptop closed) or that failed: this process's workers and
 * reconciler take up its unfinished steps; completed steps are never run (or paid for) again.
 */
export async function resumeRun(ctx: CliContext, out: Output, runId: string | undefined, dir: string): Promise<void> {
  if (!runId || !/^[0-9a-f-]{36}$/i.test(runId)) throw new CliUsageError(`"${runId ?? ''}" is not a run id`);
  const run = await ctx.app.get(RunRepository).find(ctx.tenantId, runId);
  if (!run) throw new CliUsageError(`Run ${runId} not found`);
  if (run.status === 'failed' || run.status === 'cancelled') await ctx.app.get(RunCommands).resume(ctx.tenantId, runId, 'cli');
  out.line(`Resuming run ${runId}: ${run.question}`);
  const status = await follow(ctx, out, runId, 'auto');
  if (status !== 'completed') {
    const failed = await ctx.app.get(RunRepository).find(ctx.tenantId, runId);
    throw new CliUsageError(`Run ${runId} ended ${status}: ${failed?.failureReason ?? 'no reason recorded'}`);
  }
  await writeReport(ctx, runId, dir);
  out.line(`Report written to ${path.join(dir, 'report.md')}, report.html and report.json`);
}

/** Streams the run's durable event log as progress lines until the run ends; answers gates when asked to. */
async function follow(ctx: CliContext, out: Output, runId: string, approve: 'auto' | 'prompt'): Promise<string> {
  const events = ctx.app.get(RunEventRepository);
  const runs = ctx.app.get(RunRepository);
  const started = Date.now();
  let seq = 0;
  const counts = new Map<string, number>();
  for (;;) {
    for (const row of await events.list(ctx.tenantId, runId, seq)) {
      seq = row.seq;
      const data = RunEventData.parse(row.data);
      const t = `${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s`;
      switch (data.type) {
        case 'step_completed': {
          const key = `${data.node}.${data.iteration}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
          const detail = Object.entries(data.result)
            .map(([k, v]) => `${k} ${String(v)}`)
            .join(', ');
          out.line(
            `${t}  iteration ${data.iteration}  ${data.node}${data.shard > 0 || counts.get(key)! > 1 ? ` #${counts.get(key)}` : ''}  ${detail}`,
          );
          break;
        }
        case 'gate_opened':
          out.line(`${t}  gate ${data.gate} is open (revision ${data.revision})`);
          if (approve === 'prompt') await promptGate(ctx, out, runId, data.gate);
          break;
        case 'research_stopped':
          out.line(`${t}  research stopped after iteration ${data.iteration}: ${data.reason.replaceAll('_', ' ')}`);
          break;
        case 'intervention_queued':
          out.line(`${t}  intervention queued: ${data.intervention.replaceAll('_', ' ')}`);
          break;
        case 'intervention_applied':
          out.line(`${t}  iteration ${data.iteration}  intervention applied: ${data.intervention.replaceAll('_', ' ')}`);
          break;
        case 'intervention_discarded':
          out.line(`${t}  intervention discarded (${data.intervention.replaceAll('_', ' ')}): ${data.reason}`);
          break;
        case 'run_failed':
          out.line(`${t}  run failed${data.node ? ` at ${data.node}` : ''}: ${data.error}`);
          break;
        case 'step_retrying':
          out.line(`${t}  ${data.node} attempt ${data.attempt} failed, retrying: ${data.error}`);
          break;
        case 'budget_exhausted':
          out.line(`${t}  the ${data.budget.replace('_', ' ')} budget ran out: research stops at the end of this iteration`);
          break;
        case 'run_created':
        case 'step_started':
        case 'gate_decided':
        case 'run_completed':
        case 'run_cancelled':
        case 'run_resumed':
          break;
      }
    }
    const run = await runs.find(ctx.tenantId, runId);
    if (run && ['completed', 'failed', 'cancelled'].includes(run.status)) {
      // Drain the events written with the final state.
      if ((await events.list(ctx.tenantId, runId, seq)).length === 0) return run.status;
      continue;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function promptGate(ctx: CliContext, out: Output, runId: string, gate: GateName): Promise<void> {
  const research = ctx.app.get(ResearchRepository);
  if (gate === 'plan') {
    const questions = await research.questions(ctx.tenantId, runId);
    out.line('Research plan:');
    for (const q of questions) out.line(`  [${q.priority}] ${q.text}`);
  } else if (gate === 'outline') {
    for (const s of await research.latestOutline(ctx.tenantId, runId))
      out.line(`  ${s.position + 1}. ${s.title} (${(s.claimIds as string[]).length} claims)`);
  }
  if (!process.stdin.isTTY) {
    out.line(`Waiting for a decision: dossier approve ${runId} ${gate} [--reject --feedback "..."]`);
    return;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(`Approve the ${gate}? [y = approve / anything else = feedback to reject with] `)).trim();
    const commands = ctx.app.get(RunCommands);
    if (answer === '' || /^y(es)?$/i.test(answer)) await commands.decideGate(ctx.tenantId, runId, gate, { decision: 'approve' }, 'cli');
    else await commands.decideGate(ctx.tenantId, runId, gate, { decision: 'reject', feedback: answer }, 'cli');
  } finally {
    rl.close();
  }
}

export async function writeReport(ctx: CliContext, runId: string, dir: string): Promise<void> {
  const artifacts = await ctx.prisma.reportArtifact.findMany({ where: { tenantId: ctx.tenantId, runId } });
  if (artifacts.length === 0) throw new CliUsageError(`Run ${runId} has no report yet`);
  await mkdir(dir, { recursive: true });
  for (const a of artifacts) await writeFile(path.join(dir, `report.${a.format}`), a.content);
}
