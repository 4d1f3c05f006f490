import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReportJson } from '@dossier/contracts';
import { ROLES } from '@dossier/agents';
import {
  createTestDatabase,
  FakeOpenAIServer,
  offlineRoleAnswer,
  sql,
  startChildService,
  uniquePrefix,
  waitFor,
  type TestDatabase,
} from '@dossier/testing';
import { CLI, cliRunner, EXAMPLES } from './cli-harness';

const QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";
const ARGS = ['--collection', 'examples', '--engine', 'openai', '--max-iterations', '2'];

function modelEnv(server: FakeOpenAIServer, model: string): Record<string, string> {
  return {
    OPENAI_BASE_URL: server.baseUrl,
    OPENAI_MODEL: model,
    OPENAI_RETRY_BASE_MS: '100',
    OPENAI_RATE_PER_SECOND: '200',
    OPENAI_MAX_OUTPUT_TOKENS: '32768',
    DOSSIER_LLM_TEST_ECHO: '1',
  };
}

/** The run ids of the step keys a server was asked for (a request carries its step in X-Dossier-Step-Key). */
function runsAsked(server: FakeOpenAIServer): string[] {
  return [...new Set(server.requests.map((r) => r.stepKey?.split('.')[0] ?? '(no step)'))].sort();
}

const completedSteps = async (db: TestDatabase, runId: string): Promise<number> =>
  Number(
    (await sql<{ n: string }>(db.url, "SELECT count(*) AS n FROM node_executions WHERE run_id = $1 AND status = 'completed'", [runId]))[0]!
      .n,
  );

/**
 * Issue 24 (item 7): a local `dossier research` advances only its own run. Two processes on one database, each with its
 * own model server: each server sees only its own run's requests, also after one process is killed mid-run while the
 * other keeps going; the killed run waits for `dossier resume`, which continues it only with the endpoint it ran against.
 */
describe('two local dossier research processes on one database', () => {
  let db: TestDatabase;
  const servers: FakeOpenAIServer[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    expect((await cliRunner(db)(['ingest', path.join(EXAMPLES, 'corpus'), '--collection', 'examples'])).code).toBe(0);
    const answer = offlineRoleAnswer(ROLES);
    // Slow enough that both runs are under way together and the kill lands mid-run.
    for (let i = 0; i < 2; i++) servers.push(await new FakeOpenAIServer({ answer, latencyMs: () => 150 }).start());
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await db?.drop();
  });

  it('each model server sees only its own run, also when one process is killed and the other goes on', async () => {
    const [a, b] = servers as [FakeOpenAIServer, FakeOpenAIServer];
    // One QUEUE_PREFIX for both (as two shells on one laptop with the same environment): hosts, not prefixes, keep them apart.
    const base = {
      DATABASE_URL: db.url,
      QUEUE_PREFIX: uniquePrefix('hosts'),
      VECTOR_DIR: mkdtempSync(path.join(tmpdir(), 'dossier-hosts-')),
      LOG_LEVEL: 'error',
      OTEL_SDK_DISABLED: 'true',
    };
    const outB = mkdtempSync(path.join(tmpdir(), 'dossier-hosts-b-'));
    const first = startChildService(CLI, { ...base, ...modelEnv(a, 'model-a') }, 'dossier-a', [
      'research',
      QUESTION,
      ...ARGS,
      '--out',
      mkdtempSync(path.join(tmpdir(), 'dossier-hosts-a-')),
    ]);
    const second = startChildService(CLI, { ...base, ...modelEnv(b, 'model-b') }, 'dossier-b', [
      'research',
      QUESTION,
      ...ARGS,
      '--out',
      outB,
    ]);
    try {
      const runA = /Run ([0-9a-f-]{36})/.exec(await first.waitForOutput(/Run [0-9a-f-]{36}/))![1]!;
      const runB = /Run ([0-9a-f-]{36})/.exec(await second.waitForOutput(/Run [0-9a-f-]{36}/))![1]!;
      // Both under way; then A's process dies in the middle of its run.
      await waitFor(
        'both runs under way',
        async () => ((await completedSteps(db, runA)) >= 4 && (await completedSteps(db, runB)) >= 1 ? true : undefined),
        {
          intervalMs: 50,
        },
      );
      first.kill('SIGKILL');
      await first.exited;
      const doneAtKill = await completedSteps(db, runA);

      const exitB = await second.exited;
      if (exitB.code !== 0) throw new Error(`dossier (B) exited ${exitB.code}:\n${second.output().slice(-3000)}`);
      const report = ReportJson.parse(JSON.parse(readFileSync(path.join(outB, 'report.json'), 'utf8')));
      expect(report.runId).toBe(runB);

      // Each server was asked only for its own run's steps: B's process never took A's run, before or after the kill.
      expect(runsAsked(a)).toEqual([runA]);
      expect(runsAsked(b)).toEqual([runB]);
      // The killed run did not move while B's process ran to its end: it waits for its own resume.
      expect(await completedSteps(db, runA)).toBe(doneAtKill);
      const stored = await sql<{ status: string; hosted_by: string; model_endpoint: unknown }>(
        db.url,
        'SELECT id, status, hosted_by, model_endpoint FROM research_runs WHERE id = ANY($1) ORDER BY (id = $2) DESC',
        [[runA, runB], runA],
      );
      expect(stored.map((r) => r.model_endpoint)).toEqual([
        { baseUrl: a.baseUrl.replace(/\/+$/, ''), model: 'model-a' },
        { baseUrl: b.baseUrl.replace(/\/+$/, ''), model: 'model-b' },
      ]);
      expect(stored[0]!.status).toBe('running');
      expect(stored[0]!.hosted_by).not.toBe(stored[1]!.hosted_by);

      // Resuming A with B's endpoint is refused, naming both; nothing is asked of either server.
      const askedA = a.requests.length;
      const wrong = await cliRunner(db)(['resume', runA], { ...base, ...modelEnv(b, 'model-b') });
      expect(wrong.code).toBe(1);
      expect(wrong.output).toContain(`ran against model-a at ${a.baseUrl.replace(/\/+$/, '')}; this process is configured for model-b`);
      expect(runsAsked(b)).toEqual([runB]);
      // With its own endpoint, the resume takes the run over (its process is gone) and completes it, on server A alone.
      const resumed = await cliRunner(db)(['resume', runA, '--out', mkdtempSync(path.join(tmpdir(), 'dossier-hosts-a2-'))], {
        ...base,
        ...modelEnv(a, 'model-a'),
      });
      if (resumed.code !== 0) throw new Error(`dossier resume exited ${resumed.code}:\n${resumed.output.slice(-3000)}`);
      expect(a.requests.length).toBeGreaterThan(askedA);
      expect(runsAsked(a)).toEqual([runA]);
      expect(runsAsked(b)).toEqual([runB]);
    } finally {
      first.kill('SIGKILL');
      second.kill('SIGKILL');
    }
  });
});
