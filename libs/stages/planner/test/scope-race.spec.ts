import { randomUUID } from 'node:crypto';
import { AgentRunner } from '@dossier/agents';
import { PrismaAgentStore } from '@dossier/agent-store';
import { RunOptions } from '@dossier/contracts';
import { createPrismaClient, PrismaService } from '@dossier/db';
import { allFulfilled, createTestDatabase, raceAtWrites, separateClients, sql, type TestDatabase, newRunFields } from '@dossier/testing';
import type { StepContext } from '@dossier/workflow';
import { ScopeHandler } from '../src/scope/scope.handler';

/**
 * The scope step writes the run's one objective. Two deliveries of the step (or a re-run after a worker
 * died mid-commit) write it at once: the first one stays, and neither fails (docs/decisions/0012). The
 * offline engine plays the Research Director.
 */
const N = 4;

describe('scope: racing writers of one run objective (real Postgres)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('leaves exactly one objective and no error', async () => {
    const tenantId = randomUUID();
    const runId = randomUUID();
    const options = RunOptions.parse({});
    const admin = createPrismaClient({ url: db.url, poolMax: 1 });
    await admin.tenant.create({ data: { id: tenantId, name: 'scopers' } });
    await admin.researchRun.create({
      data: { id: runId, tenantId, question: 'What limits the range of electric ferries?', status: 'running', options, workflowVersion: 1 },
    });
    await admin.$disconnect();
    const ctx: StepContext<'scope'> = {
      job: { tenantId, runId, node: 'scope', iteration: 0, shard: 0 },
      stepKey: `${runId}.scope.0.0`,
      tenantId,
      runId,
      call: { tenantId, runId, stepKey: `${runId}.scope.0.0` },
      attempt: 1,
      run: { id: runId, tenantId, question: 'What limits the range of electric ferries?', options, workflowVersion: 1, ...newRunFields() },
      rejectionFeedback: async () => null,
    };
    const { clients, close } = await separateClients(N, () => new PrismaService({ url: db.url, poolMax: 2 }));
    try {
      const race = await raceAtWrites(
        db.url,
        'research_objectives',
        clients.map((client) => async () => {
          const outcome = await new ScopeHandler(new AgentRunner(new PrismaAgentStore(client), { engine: 'offline' })).execute(ctx);
          await client.$transaction((tx) => outcome.write!(tx), { timeout: 60_000, maxWait: 60_000 });
        }),
      );
      expect(race.overlapped).toBe(true);
      allFulfilled(race);
    } finally {
      await close();
    }
    expect(await sql(db.url, 'SELECT id FROM research_objectives WHERE run_id = $1', [runId])).toHaveLength(1);
  });
});
