import type { InterventionInput } from '@dossier/contracts';
import type { SourceRecordRow } from '@dossier/db';

/** How far research went: iterations finished (completed `moderate` steps) and why it stopped. */
export interface ResearchReach {
  iterations: number;
  stopReason: string | null;
}

/**
 * One applied intervention in words, for the report's method section. A question added at a loop boundary is
 * researched in the next iteration; when research stopped before finishing that iteration (the question was accepted
 * at the last one), the report says it was not researched rather than listing it as if it had been (issue 28).
 */
export function describeIntervention(
  iteration: number,
  input: InterventionInput,
  records: readonly SourceRecordRow[],
  reach: ResearchReach,
): string {
  const when = `after iteration ${iteration + 1}`;
  switch (input.type) {
    case 'add_question': {
      const researched = reach.iterations > iteration + 1;
      const why = reach.stopReason ? ` (${reach.stopReason.replaceAll('_', ' ')})` : '';
      return `question added ${when}: "${input.question}"${researched ? '' : ` — not researched: research stopped${why} before another iteration`}`;
    }
    case 'exclude_domain':
      return `sources from ${input.domain} excluded ${when}`;
    case 'exclude_source':
      return `source ${records.find((r) => r.id === input.sourceId)?.canonicalUrl ?? input.sourceId} excluded ${when}`;
    case 'narrow_scope':
      return `scope narrowed ${when}: "${input.scope}"`;
  }
}
