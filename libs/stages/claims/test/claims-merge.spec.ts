import { randomUUID } from 'node:crypto';
import { AgentRunner, LIVE_ANSWERS, openAIConfigFromEnv, OpenAIEngine } from '@dossier/agents';
import { PrismaAgentStore } from '@dossier/agent-store';
import { RunOptions } from '@dossier/contracts';
import { PrismaService, ResearchRepository } from '@dossier/db';
import { createTestDatabase, FakeOpenAIServer, sql, type FakeChatRequest, type TestDatabase, newRunFields } from '@dossier/testing';
import type { StepContext } from '@dossier/workflow';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HashingEmbedder, LanceVectorStore } from '@dossier/vectors';
import { ClaimsHandler } from '../src/claims/claims.handler';
import { RunEmbedder } from '../src/embeddings/run-embedder';

/**
 * A model that states one claim twice in one answer (it happened: the same claim text written twice in
 * one iteration). The claims step writes it once, citing the evidence of both, through the real OpenAI
 * SDK against a local server that speaks its protocol.
 */
describe('claims step: one claim per statement within an iteration (real Postgres, local model server)', () => {
  let db: TestDatabase;
  let prisma: PrismaService;
  let server: FakeOpenAIServer;
  const tenantId = randomUUID();
  const runId = randomUUID();
  const evidence: string[] = [];
  let oldClaimId: string;

  /** The model's answer: evidence cited by the ids (short aliases) the engine sent it. */
  function answer(request: FakeChatRequest): unknown {
    const ids = (request.input as { evidence: { id: string }[] }).evidence.map((e) => e.id);
    const cite = (...i: number[]) => i.map((n) => ids[n]!);
    const claim = (statement: string, evidenceIds: string[]) => ({
      statement,
      subject: 'ferries',
      status: 'reported',
      evidenceIds,
      questionId: null,
    });
    return {
      claims: [
        claim('Battery mass limits the range of electric ferries.', cite(0)),
        claim('Charging at the quay takes four hours.', cite(1)),
        claim('Battery  mass limits the range of Electric ferries.', cite(1, 2)),
        claim('Ferries charge at the quay overnight.', cite(2)),
      ],
    };
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 2 });
    server = await new FakeOpenAIServer({ answer }).start();
    await prisma.tenant.create({ data: { id: tenantId, name: 'ferries' } });
    await prisma.researchRun.create({
      data: {
        id: runId,
        tenantId,
        question: 'What limits electric ferries?',
        status: 'running',
        options: RunOptions.parse({}),
        workflowVersion: 1,
      },
    });
    const base = { tenantId, runId };
    const snapshot = await prisma.sourceSnapshot.create({
      data: { tenantId, url: 'https://example.org/f', title: 'F', contentHash: 'f', text: 'ferry text', mediaType: 'text/plain' },
    });
    for (const [i, statement] of [
      'Battery mass limits range.',
      'Charging takes four hours.',
      'Ferries charge overnight.',
      'Old evidence.',
    ].entries()) {
      const e = await prisma.evidenceFragment.create({
        data: {
          ...base,
          snapshotId: snapshot.id,
          iteration: i < 3 ? 1 : 0,
          excerpt: statement,
          start: i,
          end: i + 1,
          statement,
          confidence: 1,
        },
      });
      evidence.push(e.id);
    }
    const old = await prisma.claim.create({
      data: { ...base, iteration: 0, statement: 'Ferries charge at the quay overnight.', subject: 'charging', status: 'reported' },
    });
    oldClaimId = old.id;
    await prisma.claimEvidence.create({ data: { claimId: old.id, evidenceId: evidence[3]! } });
  });
  afterAll(async () => {
    await server?.stop();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('writes the repeated statement once with the evidence of both mentions, and adds a restatement to the earlier claim', async () => {
    const config = openAIConfigFromEnv({ OPENAI_BASE_URL: server.baseUrl, OPENAI_MODEL: 'fake-model', OPENAI_TIMEOUT_MS: '30000' });
    const engine = new OpenAIEngine({
      config,
      limiter: { acquire: async () => undefined, pauseFor: async () => undefined },
      testEcho: true,
    });
    const vectors = await LanceVectorStore.open({ directory: mkdtempSync(path.join(tmpdir(), 'dossier-claims-merge-')) });
    const handler = new ClaimsHandler(
      new AgentRunner(new PrismaAgentStore(prisma), { engine }),
      new ResearchRepository(prisma),
      vectors,
      new RunEmbedder(new HashingEmbedder(), LIVE_ANSWERS),
    );
    const ctx: StepContext<'claims'> = {
      job: { tenantId, runId, node: 'claims', iteration: 1, shard: 0 },
      stepKey: `${runId}.claims.1.0`,
      tenantId,
      runId,
      call: { tenantId, runId, stepKey: `${runId}.claims.1.0` },
      attempt: 1,
      run: {
        id: runId,
        tenantId,
        question: 'What limits electric ferries?',
        options: RunOptions.parse({}),
        workflowVersion: 1,
        ...newRunFields(),
      },
      rejectionFeedback: async () => null,
    };
    const outcome = await handler.execute(ctx);
    await prisma.$transaction((tx) => outcome.write!(tx));
    await vectors.close();

    expect(outcome.result).toEqual({ claims: 2 });
    const rows = await sql<{ id: string; statement: string; iteration: number }>(
      db.url,
      'SELECT id, statement, iteration FROM claims WHERE run_id = $1 ORDER BY iteration, statement',
      [runId],
    );
    expect(rows.map((r) => [r.iteration, r.statement])).toEqual([
      [0, 'Ferries charge at the quay overnight.'],
      [1, 'Battery mass limits the range of electric ferries.'],
      [1, 'Charging at the quay takes four hours.'],
    ]);
    const evidenceOf = async (claimId: string) =>
      (await sql<{ evidence_id: string }>(db.url, 'SELECT evidence_id FROM claim_evidence WHERE claim_id = $1', [claimId]))
        .map((r) => r.evidence_id)
        .sort();
    expect(await evidenceOf(rows[1]!.id)).toEqual([evidence[0]!, evidence[1]!, evidence[2]!].sort());
    expect(await evidenceOf(oldClaimId)).toEqual([evidence[2]!, evidence[3]!].sort());
  });
});
