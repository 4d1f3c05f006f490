import { createInterface } from 'node:readline/promises';
import type { GateName } from '@dossier/contracts';
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
    out.line(`Waiting for a decision: ${how} approve ${runId} ${gate} [--reject --feedback "..."]`);
    return;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await rl.question(`Approve the ${gate}? [y = approve / anything else = feedback to reject with] `)).trim();
    await client.decide(
      runId,
      gate,
      answer === '' || /^y(es)?$/i.test(answer) ? { decision: 'approve' } : { decision: 'reject', feedback: answer },
    );
  } finally {
    rl.close();
  }
}
