import { Injectable } from '@nestjs/common';
import { InterventionInput } from '@dossier/contracts';
import { StageStateError } from '@dossier/errors';
import { PrismaService, type Db, type Prisma } from '../prisma.service';

export type InterventionRow = Prisma.RunInterventionGetPayload<object>;

/** What the applied interventions of a run ask of the steps after them. */
export interface AppliedRules {
  /** Domains (and their subdomains) no later search of the run may use. */
  excludedDomains: string[];
  /** Canonical URLs of the sources a person dropped (exclude_source, exclude_domain). */
  excludedUrls: string[];
  /** Narrowed scope, in the order it was applied: planning, search and writing must respect it. */
  scopes: string[];
}

/** Interventions of a run (queued by a person, applied by `moderate`). Every query filters by tenant and run. */
@Injectable()
export class InterventionRepository {
  constructor(private readonly prisma: PrismaService) {}

  insert(
    tx: Db,
    data: { tenantId: string; runId: string; type: string; payload: Prisma.InputJsonValue; createdBy: string },
  ): Promise<InterventionRow> {
    return tx.runIntervention.create({ data: { ...data, status: 'pending' } });
  }

  /** In the order they were queued: seq, not created_at, which ties within a millisecond. */
  list(tenantId: string, runId: string, db: Db = this.prisma, status?: string[]): Promise<InterventionRow[]> {
    return db.runIntervention.findMany({
      where: { tenantId, runId, ...(status ? { status: { in: status } } : {}) },
      orderBy: { seq: 'asc' },
    });
  }

  pending(tenantId: string, runId: string, db: Db = this.prisma): Promise<InterventionRow[]> {
    return this.list(tenantId, runId, db, ['pending']);
  }

  /** Applied ones, in the order they were applied: what later planning, search and writing must honour. */
  applied(tenantId: string, runId: string, db: Db = this.prisma): Promise<InterventionRow[]> {
    return db.runIntervention.findMany({
      where: { tenantId, runId, status: 'applied' },
      orderBy: [{ appliedIteration: 'asc' }, { seq: 'asc' }],
    });
  }

  async appliedRules(tenantId: string, runId: string, db: Db = this.prisma): Promise<AppliedRules> {
    const rules: AppliedRules = { excludedDomains: [], excludedUrls: [], scopes: [] };
    for (const row of await this.applied(tenantId, runId, db)) {
      // Validated when queued: a row that no longer parses means the stored state is broken, and the step must not guess.
      const input = InterventionInput.safeParse({ ...(row.payload as Record<string, unknown>), type: row.type });
      if (!input.success)
        throw new StageStateError(`Stored intervention ${row.id} does not match the contract: ${input.error.message}`, { runId });
      if (input.data.type === 'exclude_domain') rules.excludedDomains.push(input.data.domain);
      if (input.data.type === 'narrow_scope') rules.scopes.push(input.data.scope);
    }
    const dropped = await db.sourceRecord.findMany({
      where: { tenantId, runId, excludedBy: { not: null } },
      select: { canonicalUrl: true },
      distinct: ['canonicalUrl'],
      orderBy: { canonicalUrl: 'asc' },
    });
    rules.excludedUrls = dropped.map((d) => d.canonicalUrl);
    return rules;
  }

  /** Marks pending ones applied (or discarded); returns how many were still pending. */
  async settle(
    tx: Db,
    tenantId: string,
    runId: string,
    ids: string[],
    status: 'applied' | 'discarded',
    iteration: number | null,
    at: Date,
  ): Promise<number> {
    if (ids.length === 0) return 0;
    const done = await tx.runIntervention.updateMany({
      where: { tenantId, runId, id: { in: ids }, status: 'pending' },
      data: { status, appliedIteration: iteration, appliedAt: at },
    });
    return done.count;
  }
}
