import type { InterventionInput, RunEventData } from '@dossier/contracts';
import {
  ResearchRepository,
  RunEventRepository,
  type Db,
  type DroppedSources,
  type InterventionRow,
  InterventionRepository,
} from '@dossier/db';
import { hostMatchesDomain, hostOf } from '@dossier/sources';
import { AuditLog } from '@dossier/workflow';
import { Injectable } from '@nestjs/common';

/** A person's question goes to the front of the next frontier. */
export const ADDED_QUESTION_PRIORITY = 100;

export interface QueuedIntervention {
  row: InterventionRow;
  input: InterventionInput;
}

export interface AddedQuestion {
  interventionId: string;
  text: string;
}

/**
 * The questions the queued add_question interventions add for the next iteration: in the order they were
 * queued, without one already asked (same text, any case) or asked twice.
 */
export function questionsToAdd(queued: readonly QueuedIntervention[], askedBefore: Iterable<string>): AddedQuestion[] {
  const asked = new Set([...askedBefore].map((t) => t.toLowerCase()));
  const out: AddedQuestion[] = [];
  for (const q of queued) {
    if (q.input.type !== 'add_question') continue;
    const key = q.input.question.toLowerCase();
    if (asked.has(key)) continue;
    asked.add(key);
    out.push({ interventionId: q.row.id, text: q.input.question });
  }
  return out;
}

/**
 * Applies the interventions `moderate` read at its loop boundary, inside the step's transaction (which holds
 * the run lock): sources excluded with their evidence and the claims resting only on it, each intervention
 * marked applied with the iteration, one audit row and one run event each. Everything it decides is read
 * in this transaction, so a step that is run again decides the same; narrowed scope and excluded domains are
 * read by later steps from the applied interventions (`InterventionRepository.appliedRules`).
 */
@Injectable()
export class InterventionApplier {
  constructor(
    private readonly research: ResearchRepository,
    private readonly interventions: InterventionRepository,
    private readonly events: RunEventRepository,
    private readonly audit: AuditLog,
  ) {}

  async apply(
    tx: Db,
    tenantId: string,
    runId: string,
    iteration: number,
    queued: readonly QueuedIntervention[],
    added: readonly AddedQuestion[],
  ): Promise<void> {
    const at = new Date();
    const events: RunEventData[] = [];
    for (const { row, input } of queued) {
      // Another delivery of this boundary cannot have applied it (one completed step), but a cancelled run's
      // stale step could race a resumed one: only a still-pending row is applied, once.
      if ((await this.interventions.settle(tx, tenantId, runId, [row.id], 'applied', iteration, at)) === 0) continue;
      const effect = await this.effectOf(tx, tenantId, runId, row.id, input, added);
      await this.audit.appendLocked(tx, tenantId, runId, 'intervention_applied', 'system', {
        interventionId: row.id,
        input,
        iteration,
        ...effect,
      });
      events.push({ type: 'intervention_applied', interventionId: row.id, intervention: input.type, iteration });
    }
    await this.events.append(tx, tenantId, runId, events);
  }

  private async effectOf(
    tx: Db,
    tenantId: string,
    runId: string,
    interventionId: string,
    input: InterventionInput,
    added: readonly AddedQuestion[],
  ): Promise<{ questionAdded: boolean } | { dropped: DroppedSources } | Record<string, never>> {
    switch (input.type) {
      case 'add_question':
        return { questionAdded: added.some((a) => a.interventionId === interventionId) };
      case 'exclude_domain': {
        const records = await this.research.sourceRecords(tenantId, runId, { excludedBy: null }, tx);
        const matching = records.filter((r) => {
          const host = hostOf(r.canonicalUrl);
          return host !== undefined && hostMatchesDomain(host, input.domain);
        });
        return {
          dropped: await this.research.dropSources(
            tx,
            tenantId,
            runId,
            matching.map((r) => r.id),
            interventionId,
          ),
        };
      }
      case 'exclude_source': {
        // The source as the run knows it: every sighting of the same canonical URL goes with it.
        const [record] = await this.research.sourceRecords(tenantId, runId, { id: input.sourceId }, tx);
        const sightings = record
          ? await this.research.sourceRecords(tenantId, runId, { canonicalUrl: record.canonicalUrl, excludedBy: null }, tx)
          : [];
        return {
          dropped: await this.research.dropSources(
            tx,
            tenantId,
            runId,
            sightings.map((r) => r.id),
            interventionId,
          ),
        };
      }
      case 'narrow_scope':
        return {};
    }
  }
}
