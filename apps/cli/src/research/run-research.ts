import { CliUsageError } from '../cli-error';
import type { DossierClient } from '@dossier/client';
import type { Output } from '../output';
import { ingestInto } from '../commands/ingest.command';
import { followToReport } from './follow-run';
import { runOptionsFor, type ResearchFlags } from './research-flags';

/** Ingests the corpus if given, starts the run, follows it to its end and writes the reports. */
export async function runResearch(
  client: DossierClient,
  out: Output,
  question: string,
  flags: ResearchFlags,
  how: string,
): Promise<string> {
  // Fail before ingesting anything, naming what is missing.
  await client.checkEngine(flags.engine);
  if (flags.corpus?.length) {
    const report = await ingestInto(client, out, flags.corpus, flags.collection);
    if (report.ingested + report.updated + report.unchanged + report.duplicates === 0) {
      throw new CliUsageError(`The corpus at ${flags.corpus.join(', ')} has no readable documents (md, txt, html, pdf)`);
    }
  }
  if (flags.search.includes('corpus') && (await client.collectionSize(flags.collection)) === 0) {
    throw new CliUsageError(
      `Collection "${flags.collection}" is empty: ingest documents first (dossier ingest PATH --collection ${flags.collection}) or pass --corpus PATH`,
    );
  }
  const run = await client.start(question, runOptionsFor(flags));
  out.line(`Run ${run.id}: ${question}`);
  await followToReport(client, out, run, {
    approve: flags.approve === 'prompt' ? 'prompt' : 'wait',
    dir: flags.out,
    formats: flags.format,
    how,
  });
  return run.id;
}
