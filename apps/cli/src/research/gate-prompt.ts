import { createInterface } from 'node:readline/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { TERMINAL_RUN_STATUSES, type GateName } from '@dossier/contracts';
import type { PublishPreview } from '@dossier/db';
import type { DossierClient } from '@dossier/client';
import type { Output } from '../output';

interface GateSubject {
  perspectives?: { name: string; role: string }[];
  questions?: { priority: number; text: string }[];
  sections?: { position: number; title: string; claimIds?: unknown[] }[];
}

/** The publish gate's subject as lines: the report in brief and what verification did. */
export function printPublishPreview(out: Output, p: PublishPreview): void {
  out.line('Report summary:');
  for (const s of p.introduction) out.line(`  ${s}`);
  p.sections.forEach((s, i) => out.line(`  ${i + 1}. ${s.title} (${s.sentences} sentences)`));
  if (p.disagreements > 0) out.line(`  Where the sources disagree: ${p.disagreements} disagreements`);
  for (const s of p.conclusion) out.line(`  Conclusion: ${s}`);
  const v = p.verification;
  out.line(
    `Verification: checks made: ${v.checked}; ${v.failedByGuard} failed the guard, ${v.failedByJudge} the verifier; ${v.repaired} repaired, ${v.removed} removed.`,
  );
}

/**
 * Shows what an open gate asks to approve (the plan, the outline, or the report in brief with its verification figures)
 * and asks at the terminal; without a terminal, says how to decide from another shell and lets the run wait.
 */
export async function promptGate(client: DossierClient, out: Output, runId: string, gate: GateName, how: string): Promise<void> {
  const open = (await client.approvals(runId)).find((a) => a.gate === gate && a.status === 'open');
  if (!open) return;
  const subject = (open.subject ?? {}) as GateSubject;
  if (gate === 'publish' && open.subject) printPublishPreview(out, open.subject as PublishPreview);
  if (subject.perspectives?.length) {
    out.line('Analysts:');
    for (const p of subject.perspectives) out.line(`  ${p.name} — ${p.role}`);
  }
  if (subject.questions) {
    out.line('Research plan:');
    for (const q of subject.questions) out.line(`  [${q.priority}] ${q.text}`);
  }
  for (const s of gate === 'publish' ? [] : (subject.sections ?? [])) {
    out.line(`  ${s.position + 1}. ${s.title}${s.claimIds ? ` (${s.claimIds.length} claims)` : ''}`);
  }
  if (!process.stdin.isTTY) {
    out.line(decideHint(how, runId, gate));
    return;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  // The question stops being asked when the run ends (`dossier cancel` from another shell) or the gate is decided
  // elsewhere: the prompt otherwise kept asking about a cancelled run (issue 28).
  const asking = new AbortController();
  const answered = new AbortController();
  const watching = gateGone(client, runId, gate, answered.signal).then((why) => {
    if (why) asking.abort();
    return why;
  });
  let answer: string;
  try {
    answer = (
      await rl.question(`Approve the ${gate}? [y = approve / anything else = feedback to reject with] `, { signal: asking.signal })
    ).trim();
  } catch (err) {
    if (!asking.signal.aborted) throw err;
    out.line('');
    out.line(`${await watching} Not asking any more.`);
    return;
  } finally {
    answered.abort();
    rl.close();
  }
  await client.decide(
    runId,
    gate,
    answer === '' || /^y(es)?$/i.test(answer) ? { decision: 'approve' } : { decision: 'reject', feedback: answer },
  );
}

/** How to decide an open gate from another shell: the exact command. */
export function decideHint(how: string, runId: string, gate: GateName): string {
  return `Gate ${gate} is waiting for a decision: ${how} approve ${runId} ${gate} (or --reject --feedback "what to change")`;
}

/** How often a prompt looks whether its run ended or its gate was decided elsewhere. */
const WATCH_MS = 1_000;

/**
 * Until `stop` is aborted, looks each second whether the run ended or the gate is no longer open; says which (null:
 * stopped first). A failed look is looked at again.
 */
async function gateGone(client: DossierClient, runId: string, gate: GateName, stop: AbortSignal): Promise<string | null> {
  for (;;) {
    await sleep(WATCH_MS, undefined, { signal: stop }).catch(() => undefined);
    if (stop.aborted) return null;
    try {
      const run = await client.run(runId);
      if (TERMINAL_RUN_STATUSES.includes(run.status)) {
        return `Run ${runId} was ${run.status} from elsewhere${run.failureReason ? ` (${run.failureReason})` : ''}.`;
      }
      if (!(await client.approvals(runId)).some((a) => a.gate === gate && a.status === 'open')) {
        return `Gate ${gate} was decided from elsewhere.`;
      }
    } catch {
      // Looked at again next time.
    }
  }
}
