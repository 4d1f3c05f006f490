import { GateName, type ApprovalDecision } from '@dossier/contracts';
import { ApprovalRepository, RunRepository } from '@dossier/db';
import { RunCommands } from '@dossier/workflow';
import type { CliContext } from '../cli-context';
import { CliUsageError } from '../cli-error';
import type { Output } from '../output';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function runIdArg(value: string | undefined): string {
  if (!value || !UUID.test(value)) throw new CliUsageError(`"${value ?? ''}" is not a run id (a UUID, as printed by dossier runs)`);
  return value;
}

export async function listRuns(ctx: CliContext, out: Output): Promise<void> {
  const runs = await ctx.app.get(RunRepository).list(ctx.tenantId);
  if (runs.length === 0) return out.line('No runs yet.');
  for (const r of runs) out.line(`${r.id}  ${r.status.padEnd(17)}  ${r.createdAt.toISOString().slice(0, 19)}  ${r.question}`);
}

export async function showRun(ctx: CliContext, out: Output, id: string | undefined): Promise<void> {
  const runId = runIdArg(id);
  const run = await ctx.app.get(RunRepository).find(ctx.tenantId, runId);
  if (!run) throw new CliUsageError(`No run ${runId}`);
  out.line(`Run ${run.id}`);
  out.line(`  question     ${run.question}`);
  out.line(
    `  status       ${run.status}${run.awaitingGate ? ` (gate ${run.awaitingGate})` : ''}${run.failureReason ? ` — ${run.failureReason}` : ''}`,
  );
  out.line(`  current node ${run.currentNode ?? '-'}; research stopped: ${run.stopReason ?? '-'}`);
  const steps = await ctx.prisma.nodeExecution.groupBy({ by: ['status'], where: { tenantId: ctx.tenantId, runId }, _count: true });
  out.line(`  steps        ${steps.map((s) => `${s._count} ${s.status}`).join(', ') || 'none'}`);
  const counts = await Promise.all([
    ctx.prisma.evidenceFragment.count({ where: { tenantId: ctx.tenantId, runId } }),
    ctx.prisma.claim.count({ where: { tenantId: ctx.tenantId, runId } }),
    ctx.prisma.contradiction.count({ where: { tenantId: ctx.tenantId, runId } }),
  ]);
  out.line(`  evidence ${counts[0]}, claims ${counts[1]}, contradictions ${counts[2]}`);
  for (const a of await ctx.app.get(ApprovalRepository).list(ctx.tenantId, runId)) {
    out.line(`  gate ${a.gate} r${a.revision}: ${a.status}${a.feedback ? ` — ${a.feedback}` : ''}`);
  }
  for (const i of await ctx.app.get(RunCommands).listInterventions(ctx.tenantId, runId)) {
    const { type, ...what } = i.input;
    const at = i.appliedIteration === null ? '' : ` at iteration ${i.appliedIteration}`;
    out.line(`  intervention ${type.replaceAll('_', ' ')} ${JSON.stringify(Object.values(what)[0])}: ${i.status}${at} (by ${i.createdBy})`);
  }
}

/** The run, gate and decision that `dossier approve` asks for (local and API mode read the flags alike). */
export function gateDecisionArgs(
  id: string | undefined,
  gate: string | undefined,
  reject: boolean,
  feedback: string | undefined,
): { runId: string; gate: GateName; decision: ApprovalDecision } {
  const runId = runIdArg(id);
  const g = GateName.safeParse(gate);
  if (!g.success) throw new CliUsageError(`"${gate ?? ''}" is not a gate: use plan, outline or publish`);
  if (reject && !feedback?.trim()) throw new CliUsageError('--reject needs --feedback "what to change"');
  return { runId, gate: g.data, decision: reject ? { decision: 'reject', feedback: feedback! } : { decision: 'approve' } };
}

export async function approve(
  ctx: CliContext,
  out: Output,
  id: string | undefined,
  gate: string | undefined,
  reject: boolean,
  feedback?: string,
): Promise<void> {
  const args = gateDecisionArgs(id, gate, reject, feedback);
  await ctx.app.get(RunCommands).decideGate(ctx.tenantId, args.runId, args.gate, args.decision, 'cli');
  out.line(`${reject ? 'Rejected' : 'Approved'} gate ${args.gate} of run ${args.runId}.`);
}

/** Prints the stored text of a source snapshot, by id or by (a prefix of) its content hash from report.json. */
export async function sourceText(ctx: CliContext, id: string | undefined): Promise<void> {
  if (!id || id.length < 8)
    throw new CliUsageError('Give a source snapshot id, or at least 8 characters of its content hash (report.json sources[].contentHash)');
  const where = UUID.test(id) ? { id } : { contentHash: { startsWith: id.toLowerCase() } };
  const found = await ctx.prisma.sourceSnapshot.findMany({ where: { tenantId: ctx.tenantId, ...where }, take: 2 });
  if (found.length === 0) throw new CliUsageError(`No source ${id}`);
  if (found.length > 1) throw new CliUsageError(`"${id}" matches more than one source: give more of the hash`);
  process.stdout.write(found[0]!.text.endsWith('\n') ? found[0]!.text : `${found[0]!.text}\n`);
}
