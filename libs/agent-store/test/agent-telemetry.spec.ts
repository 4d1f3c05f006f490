import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { register } from 'prom-client';
import { PrismaService } from '@dossier/db';
import { createTestDatabase, type TestDatabase } from '@dossier/testing';
import { AgentRunner, director } from '@dossier/agents';
import { PrismaAgentStore } from '../src';
import { QUESTION } from './fixtures/fake-llm';

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('AgentRunner telemetry: a GenAI span and token counters per call, matching llm_calls', () => {
  let db: TestDatabase;
  let prisma: PrismaService;
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 2 });
  });
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('records the call as `chat <model>` with gen_ai.* attributes and counts its tokens', async () => {
    const ctx = { tenantId: randomUUID(), runId: randomUUID(), stepKey: 'r.scope.0.0' };
    await new AgentRunner(new PrismaAgentStore(prisma), { engine: 'offline' }).run(director, { question: QUESTION }, ctx);
    const [row] = await prisma.llmCall.findMany({ where: { runId: ctx.runId } });

    const spans = exporter.getFinishedSpans().filter((s) => s.name === `chat ${row!.model}`);
    expect(spans).toHaveLength(1);
    expect(spans[0]!.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'offline',
      'gen_ai.request.model': row!.model,
      'gen_ai.response.model': row!.model,
      'gen_ai.usage.input_tokens': row!.tokensIn,
      'gen_ai.usage.output_tokens': row!.tokensOut,
      'dossier.llm.cost_usd': Number(row!.costUsd),
      'dossier.agent.role': 'director',
    });

    const text = await register.metrics();
    // An offline play sends no request: it is counted as a play of its role, never as model tokens (decision 0040).
    expect(sample(text, `dossier_offline_plays_total{role="director"}`)).toBe(1);
    expect(sample(text, `dossier_llm_tokens_total{direction="input",model="${row!.model}"}`)).toBeUndefined();
    expect(sample(text, `dossier_llm_tokens_total{direction="output",model="${row!.model}"}`)).toBeUndefined();
  });
});
