import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { Inject, Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { DbModule, PrismaService } from '@dossier/db';
import { createTestDatabase, type TestDatabase } from '@dossier/testing';
import {
  AgentInputError,
  AgentRunner,
  AgentsModule,
  countWords,
  director,
  evidenceCurator,
  EXTERNAL_ANSWERS,
  LIVE_ANSWERS,
  type ExternalAnswers,
} from '@dossier/agents';
import { PrismaAgentStore, RecordedExternalAnswers } from '../src';
import { QUESTION } from './fixtures/fake-llm';

describe('AgentRunner against Postgres, through PrismaAgentStore', () => {
  let db: TestDatabase;
  let prisma: PrismaService;

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService({ url: db.url, poolMax: 2 });
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('writes one llm_calls row per call', async () => {
    const ctx = { tenantId: randomUUID(), runId: randomUUID(), stepKey: 'r.scope.0.0' };
    const runner = new AgentRunner(new PrismaAgentStore(prisma), { engine: 'offline' });
    const input = { question: QUESTION };
    const out = await runner.run(director, input, ctx);
    expect(out.timeFrame).toBe('1933–1937');

    const rows = await prisma.llmCall.findMany({ where: { runId: ctx.runId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tenantId: ctx.tenantId,
      stepKey: ctx.stepKey,
      role: 'director',
      engine: 'offline',
      model: 'offline-nlp-1',
      tokensIn: countWords(input),
      tokensOut: countWords(out),
      costUsd: 0,
      outcome: 'ok',
      error: null,
    });
    expect(rows[0]!.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('rejects invalid input with a clear message and writes no row', async () => {
    const ctx = { tenantId: randomUUID(), runId: randomUUID(), stepKey: 'r.extract.0.3' };
    const runner = new AgentRunner(new PrismaAgentStore(prisma), { engine: 'offline' });
    const bad = {
      question: QUESTION,
      questions: [],
      source: { id: 'S1', title: 'x', text: 'The bridge opened in 1937.' },
      maxFragments: 0,
    };
    const err = await runner.run(evidenceCurator, bad, ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentInputError);
    expect((err as Error).message).toMatch(/^Invalid input for agent role evidenceCurator: maxFragments: /);
    expect(await prisma.llmCall.count({ where: { runId: ctx.runId } })).toBe(0);
  });

  it('is provided by AgentsModule over PrismaAgentStore and the PrismaService of DbModule; a call outside a known openai run is offline', async () => {
    @Module({
      imports: [DbModule.forRoot({ url: db.url, poolMax: 2 }), AgentsModule.forRoot({ engine: 'per-run', store: PrismaAgentStore })],
    })
    class HostModule {}
    const app: INestApplicationContext = await NestFactory.createApplicationContext(HostModule, { logger: false });
    try {
      const runner = app.get(AgentRunner);
      expect(runner.engineName).toBe('per-run');
      const ctx = { tenantId: randomUUID(), runId: randomUUID(), stepKey: 'r.scope.0.0' };
      await runner.run(director, { question: 'How tall is the Eiffel Tower?' }, ctx);
      expect(await prisma.llmCall.count({ where: { runId: ctx.runId, outcome: 'ok', engine: 'offline' } })).toBe(1);
    } finally {
      await app.close();
    }
  });

  it("lends the run's recording explicitly: forPipeline provides its `answers` class as EXTERNAL_ANSWERS to the stage's own providers; forRoot without one is live", async () => {
    /** Stands in for a stage provider that embeds (RunEmbedder): it gets the port by injection, not from a global. */
    @Injectable()
    class Consumer {
      constructor(@Inject(EXTERNAL_ANSWERS) readonly answers: ExternalAnswers) {}
    }
    const none = Symbol('none');
    @Module({
      imports: [
        DbModule.forRoot({ url: db.url, poolMax: 2 }),
        AgentsModule.forPipeline({ redis: none, budgetSink: none, store: PrismaAgentStore, answers: RecordedExternalAnswers }),
      ],
      providers: [Consumer],
    })
    class StageModule {}
    @Module({
      imports: [DbModule.forRoot({ url: db.url, poolMax: 2 }), AgentsModule.forRoot({ engine: 'offline', store: PrismaAgentStore })],
    })
    class TestModule {}
    const stage = await NestFactory.createApplicationContext(StageModule, { logger: false });
    const test = await NestFactory.createApplicationContext(TestModule, { logger: false });
    try {
      expect(stage.get(Consumer).answers).toBeInstanceOf(RecordedExternalAnswers);
      expect(test.get(EXTERNAL_ANSWERS)).toBe(LIVE_ANSWERS);
    } finally {
      await stage.close();
      await test.close();
    }
  });
});
