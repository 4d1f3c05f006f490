import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ReportFormat, RunView } from '@dossier/contracts';
import { CliUsageError } from '../cli-error';
import type { DossierClient } from '@dossier/client';
import type { Output } from '../output';
import { decideHint, promptGate } from './gate-prompt';
import { progressLine } from '@dossier/client';

/**
 * How a followed run's open gates are decided: `prompt` asks at the terminal, `auto` approves each one on the person's
 * behalf (a resumed run started with `--approve prompt`), `wait` prints the command that decides it from another shell.
 */
export type GateHandling = 'auto' | 'prompt' | 'wait';

/**
 * Prints a progress line per event of the run until it ends (deciding open gates as `approve` says), then writes the report files asked for (report.md, .html, .json, .pdf) into `dir`. A run
 * that did not complete is an error naming its status and reason.
 */
export async function followToReport(
  client: DossierClient,
  out: Output,
  run: RunView,
  opts: { approve: GateHandling; dir: string; formats: readonly ReportFormat[]; how: string },
): Promise<void> {
  const started = Date.now();
  const repeats = new Map<string, number>();
  const final = await client.follow(run.id, async ({ data }) => {
    const line = progressLine(data, repeats);
    if (line) out.line(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s  ${line}`);
    if (data.type !== 'gate_opened') return;
    if (opts.approve === 'prompt') return promptGate(client, out, run.id, data.gate, opts.how);
    // A gate_opened event of the log may be an old one (a resumed run's log is read from its start): only a gate still
    // open is decided or announced.
    if (!(await client.approvals(run.id)).some((a) => a.gate === data.gate && a.status === 'open')) return;
    if (opts.approve === 'wait') return out.line(decideHint(opts.how, run.id, data.gate));
    await client.decide(run.id, data.gate, { decision: 'approve' });
    out.line(`Approved gate ${data.gate} (--approve auto).`);
  });
  if (final.status === 'cancelled') {
    throw new CliUsageError(
      `Run ${run.id} was cancelled${final.failureReason ? ` (${final.failureReason})` : ''}; ${opts.how} resume ${run.id} continues it`,
    );
  }
  if (final.status !== 'completed') {
    throw new CliUsageError(`Run ${run.id} ended ${final.status}: ${final.failureReason ?? 'no reason recorded'}`);
  }
  await mkdir(opts.dir, { recursive: true });
  const written: string[] = [];
  for (const format of opts.formats) {
    const file = path.join(opts.dir, `report.${format}`);
    await writeFile(file, await client.report(run.id, format));
    written.push(file);
  }
  out.line(`Report written to ${written.join(', ')}`);
}
