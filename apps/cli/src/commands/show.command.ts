import { defineCommand } from '../framework/command-spec';
import { runIdArg } from '../framework/option-parsers';
import { decideHint } from '../research/gate-prompt';
import { TERMINAL_RUN_STATUSES } from '@dossier/contracts';

export const showCommand = defineCommand({
  name: 'show',
  description: 'A run: status, steps, counts, gate decisions and interventions',
  arguments: [{ name: 'run', description: 'the run id', required: true }],
  async run({ args, out, client, invocation }) {
    const c = await client();
    const runId = runIdArg(args[0] as string);
    const run = await c.run(runId);
    out.line(`Run ${run.id}`);
    out.line(`  question     ${run.question}`);
    out.line(
      `  status       ${run.status}${run.awaitingGate && run.status === 'awaiting_approval' ? ` (gate ${run.awaitingGate})` : ''}${run.failureReason ? ` — ${run.failureReason}` : ''}`,
    );
    out.line(`  current node ${run.currentNode ?? '-'}; research stopped: ${run.stopReason ?? '-'}`);
    const progress = run.progress;
    if (progress) {
      const steps = Object.entries(progress.steps).map(([status, n]) => `${n} ${status}`);
      out.line(`  steps        ${steps.join(', ') || 'none'}`);
      out.line(`  evidence ${progress.evidence}, claims ${progress.claims}, contradictions ${progress.contradictions}`);
      // The report's figures once it is written (decision 0086).
      const v = progress.verification;
      out.line(
        `  verification checks made ${v.checked}${v.sentences === null ? '' : `; sentences in the report ${v.sentences}, supported by their cited passages ${v.supported ?? 0}`}`,
      );
    }
    const ended = TERMINAL_RUN_STATUSES.includes(run.status);
    for (const a of await c.approvals(runId)) {
      // A gate left open by a cancel (or a failure) waits for nothing until the run is resumed (which reopens it).
      const status =
        a.status === 'open' && ended
          ? `not decided (run ${run.status}; ${invocation} resume ${runId} reopens it)`
          : `${a.status}${a.feedback ? ` — ${a.feedback}` : ''}`;
      out.line(`  gate ${a.gate} r${a.revision}: ${status}`);
      if (a.status === 'open' && !ended) out.line(`    ${decideHint(invocation, runId, a.gate)}`);
    }
    for (const i of await c.interventions(runId)) {
      const { type, ...what } = i.input;
      const at = i.appliedIteration === null ? '' : ` at iteration ${i.appliedIteration}`;
      out.line(
        `  intervention ${type.replaceAll('_', ' ')} ${JSON.stringify(Object.values(what)[0])}: ${i.status}${at} (by ${i.createdBy})`,
      );
    }
  },
});
