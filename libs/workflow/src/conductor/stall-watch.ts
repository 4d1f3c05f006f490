import { Inject, Injectable } from '@nestjs/common';
import type { ServiceName } from '@dossier/contracts';
import { StepQueues } from '@dossier/queue';
import { createLogger } from '@dossier/telemetry';
import type { WorkflowGraphs } from '../graph/workflow-graphs';
import { WorkerLivenessLocks } from '../runner/worker-liveness-locks';
import { WORKFLOW_GRAPHS } from '../workflow-options';

/**
 * Hands a step whose worker died to another worker in about a second (docs/decisions/0027), without waiting
 * for BullMQ's lock to expire. Each active job's BullMQ lock token names the worker of its delivery; a worker
 * whose liveness lock (WorkerLivenessLocks, taken before it took any job) no Postgres session holds is gone.
 * Seen so on two scans in a row with the same token, the watch deletes that lock (only if it still has that
 * token), and the next stalled check of any worker moves the job back to waiting. A step that blocks its
 * worker's event loop, or waits a minute on a model, keeps its worker's lock and is never taken.
 *
 * Were the watch ever wrong (Postgres restarted under a live worker), the cost is a redelivery that finds the
 * step held or completed: the step's lease and the completing transaction, fenced by the attempt, keep a step from
 * completing twice (docs/decisions/0070).
 */
@Injectable()
export class StallWatch {
  private readonly logger = createLogger('stall-watch');
  /** "<queue> <job id>" → the lock token seen with a dead worker on the previous scan. */
  private suspects = new Map<string, string>();

  constructor(
    private readonly queues: StepQueues,
    private readonly liveness: WorkerLivenessLocks,
    @Inject(WORKFLOW_GRAPHS) private readonly workflows: WorkflowGraphs,
  ) {}

  /** One scan of every queue; returns the step keys released to other workers. */
  async scan(): Promise<string[]> {
    const active: { service: ServiceName; id: string; token: string }[] = [];
    for (const service of new Set<ServiceName>(Object.values(this.workflows.table.service))) {
      const ids = await this.queues.activeIds(service);
      const tokens = await Promise.all(ids.map((id) => this.queues.lockOf(service, id)));
      for (const [i, id] of ids.entries()) if (tokens[i]) active.push({ service, id, token: tokens[i] });
    }
    const workerOf = (token: string): string => token.slice(0, token.lastIndexOf(':'));
    const dead = new Set(await this.liveness.unheld([...new Set(active.map((a) => workerOf(a.token)))]));
    const seen = new Map<string, string>();
    const released: string[] = [];
    for (const job of active.filter((a) => dead.has(workerOf(a.token)))) {
      const suspect = `${job.service} ${job.id}`;
      if (this.suspects.get(suspect) !== job.token) seen.set(suspect, job.token);
      else if (await this.queues.dropLock(job.service, job.id, job.token)) released.push(job.id);
    }
    this.suspects = seen;
    if (released.length > 0) this.logger.warn({ steps: released }, 'released steps whose worker is gone (no liveness lock)');
    return released;
  }
}
