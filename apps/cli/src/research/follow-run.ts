import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ReportFormat, RunView } from '@dossier/contracts';
import { CliUsageError } from '../cli-error';
import type { DossierClient } from '@dossier/client';
import type { Output } from '../output';
import { promptGate } from './gate-prompt';
import { progressLine } from '@dossier/client';

/**
 * Prints a progress line per event of the run until it ends (answering gates at the terminal with
 * `approve: 'prompt'`), then writes the report files asked for (report.md, .html, .json, .pdf) into `dir`. A run
 * that did not complete is an error naming its status and reason.
 */
export async function followToReport(
  client: DossierClient,
  out: Output,
  run: RunView,
  opts: { approve: 'auto' | 'prompt'; dir: string; formats: readonly ReportFormat[]; how: string },
): Promise<void> {
  const started = Date.now();
  const repeats = new Map<string, number>();
  const final = await client.follow(run.id, async ({ data }) => {
    const line = progressLine(data, repeats);
    if (line) out.line(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s  ${line}`);
    if (data.type === 'gate_opened' && opts.approve === 'prompt') await promptGate(client, out, run.id, data.gate, opts.how);
  });
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
