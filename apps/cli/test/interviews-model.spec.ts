import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReportJson } from '@dossier/contracts';
import { ROLES } from '@dossier/agents';
import {
  offlineRoleAnswer,
  createTestDatabase,
  FakeOpenAIServer,
  sql,
  startChildService,
  waitFor,
  type FakeChatRequest,
  type TestDatabase,
} from '@dossier/testing';
import { CLI, cliRunner, EXAMPLES } from './cli-harness';
import { contestedInBody, expectAnswerFramed } from './framing-checks';

const QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";

/** A correct model: each role's offline answer to the input the engine echoed. */
const offlineAnswer = offlineRoleAnswer(ROLES);

function llmEnv(server: FakeOpenAIServer): Record<string, string> {
  return {
    OPENAI_BASE_URL: server.baseUrl,
    OPENAI_MODEL: 'fake-model',
    OPENAI_RETRY_BASE_MS: '100',
    OPENAI_RATE_PER_SECOND: '200',
    OPENAI_MAX_OUTPUT_TOKENS: '32768',
    DOSSIER_LLM_TEST_ECHO: '1',
  };
}

const ARGS = ['--collection', 'examples', '--engine', 'openai', '--mode', 'interviews', '--perspectives', '4', '--interview-turns', '3'];

/** Issue 14 against the local OpenAI-compatible server: the analyst and expert roles, parallel turns, a worker killed mid-turn. */
describe('dossier research --mode interviews --engine openai', () => {
  let db: TestDatabase;
  const servers: FakeOpenAIServer[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const ingest = await cliRunner(db)(['ingest', path.join(EXAMPLES, 'corpus'), '--collection', 'examples']);
    expect(ingest.code).toBe(0);
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await db?.drop();
  });

  async function fake(latency: number): Promise<FakeOpenAIServer> {
    const s = await new FakeOpenAIServer({ answer: offlineAnswer, latencyMs: () => latency }).start();
    servers.push(s);
    return s;
  }

  it('4 analysts × 3 turns: each role asked by its own prompt, turns of different interviews overlap, one section per analyst', async () => {
    const server = await fake(120);
    const out = mkdtempSync(path.join(tmpdir(), 'dossier-interviews-llm-'));
    const started = Date.now();
    const result = await cliRunner(db)(['research', QUESTION, ...ARGS, '--out', out], llmEnv(server));
    if (result.code !== 0) throw new Error(`dossier exited ${result.code}:\n${result.output.slice(-3000)}`);
    const wallMs = Date.now() - started;
    const report = ReportJson.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    const runId = report.runId;

    // The roles spoke to the model, each with its own prompt.
    const asked = server.requests.filter((r) => r.role === 'interviewAnalyst');
    const answered = server.requests.filter((r) => r.role === 'interviewExpert');
    expect(asked.length).toBeGreaterThanOrEqual(4);
    expect(answered.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(asked[0]!.body.messages[0])).toMatch(/Analyst interviewing an expert/);
    expect(JSON.stringify(answered[0]!.body.messages[0])).toMatch(/Expert answering an analyst/);
    // No shared conversation: each analyst's transcript holds only its own questions.
    const turns = await sql<{ shard: number; turn: number; question: string; perspective_id: string }>(
      db.url,
      'SELECT shard, turn, question, perspective_id FROM interview_turns WHERE run_id = $1 ORDER BY shard, turn',
      [runId],
    );
    expect([...new Set(turns.map((t) => t.shard))]).toEqual([0, 1, 2, 3]);
    for (const r of asked) {
      const input = r.input as { analyst: { name: string }; transcript: { question: string }[] };
      const shard = turns.find((t) => input.transcript[0]?.question === t.question)?.shard;
      if (shard !== undefined) for (const q of input.transcript) expect(turns.find((t) => t.question === q.question)!.shard).toBe(shard);
    }

    // One section per analyst whose interview yielded a verified sentence; an interview whose every answer sentence the
    // prose gate removed (decision 0046) has sectionId null and no section.
    const written = report.interviews!.filter((i) => i.sectionId !== null);
    expect(report.interviews).toHaveLength(4);
    expect(written.length).toBeGreaterThanOrEqual(1);
    expect(report.sections.filter((s) => s.kind === 'body')).toHaveLength(written.length);
    expect(report.sections.map((s) => s.id)).toEqual(expect.arrayContaining(['introduction', 'conclusion']));
    for (const s of report.sections.filter((x) => x.kind === 'body'))
      for (const p of s.paragraphs) for (const sentence of p.sentences) expect(sentence.evidenceIds.length).toBeGreaterThan(0);
    // Issue 13 with a model: the introduction states cited, verified findings; the conclusion names what stays open; no
    // contested position in an interview section.
    await expectAnswerFramed(report, db.url);
    expect(contestedInBody(report)).toEqual([]);

    // Parallelism: some turn of one interview ran while a turn of another did (no timing assertion).
    const steps = await sql<{ shard: number; started_at: Date; completed_at: Date }>(
      db.url,
      "SELECT shard, started_at, completed_at FROM node_executions WHERE run_id = $1 AND node = 'interview' ORDER BY started_at",
      [runId],
    );
    const overlapping = steps.some((a) =>
      steps.some((b) => a.shard !== b.shard && a.started_at < b.completed_at && b.started_at < a.completed_at),
    );
    expect(overlapping).toBe(true);

    // Figures for the closing note (reported, not asserted).
    const perShard = [0, 1, 2, 3].map((shard) => {
      const own = steps.filter((s) => s.shard === shard);
      return own.length === 0 ? 0 : Math.max(...own.map((s) => +s.completed_at)) - Math.min(...own.map((s) => +s.started_at));
    });
    const all = Math.max(...steps.map((s) => +s.completed_at)) - Math.min(...steps.map((s) => +s.started_at));
    const calls = await sql<{ n: string; tin: string; tout: string }>(
      db.url,
      "SELECT count(*) AS n, sum(tokens_in) AS tin, sum(tokens_out) AS tout FROM llm_calls WHERE run_id = $1 AND step_key LIKE '%.interview.%' AND engine = 'openai'",
      [runId],
    );
    const c = calls[0]!;
    process.stdout.write(
      `interviews: ${turns.length} turns; all interviews ${all} ms vs slowest interview ${Math.max(...perShard)} ms (sum ${perShard.reduce((a, b) => a + b, 0)} ms); ` +
        `per turn ${(Number(c.n) / turns.length).toFixed(1)} model calls, ${Math.round(Number(c.tin) / turns.length)} tokens in, ${Math.round(Number(c.tout) / turns.length)} out; run ${wallMs} ms\n`,
    );
  });

  it('a worker killed during an interview turn: the run completes and no answered model request is paid twice', async () => {
    const server = await fake(250);
    const env = { ...llmEnv(server), STEP_LOCK_MS: '2000', STALLED_INTERVAL_MS: '1000' };
    const base = {
      DATABASE_URL: db.url,
      QUEUE_PREFIX: `ikill-${process.pid}`,
      VECTOR_DIR: mkdtempSync(path.join(tmpdir(), 'dossier-ik-')),
      LOG_LEVEL: 'error',
      OTEL_SDK_DISABLED: 'true',
    };
    const first = startChildService(CLI, { ...base, ...env }, 'dossier', [
      'research',
      QUESTION,
      ...ARGS,
      '--out',
      mkdtempSync(path.join(tmpdir(), 'dossier-ik-out-')),
    ]);
    const runId = /Run ([0-9a-f-]{36})/.exec(await first.waitForOutput(/Run [0-9a-f-]{36}/))![1]!;
    // Kill once some turns are committed and a turn still running has recorded an answer and waits for another. What
    // counts as received is what the worker recorded (llm_calls.answer), never a time margin: an answer that arrived
    // but was not yet recorded dies with the worker, and asking it again is then correct.
    const recordedAnswers = async () =>
      sql<{ id: string; step_key: string }>(
        db.url,
        "SELECT id, step_key FROM llm_calls WHERE run_id = $1 AND step_key LIKE '%.interview.%' AND answer IS NOT NULL",
        [runId],
      );
    await waitFor(
      'a turn part-way through its model calls',
      async () => {
        const done = await sql<{ step_key: string }>(
          db.url,
          "SELECT step_key FROM node_executions WHERE run_id = $1 AND node = 'interview' AND status = 'completed'",
          [runId],
        );
        if (done.length < 2) return undefined;
        const completed = new Set(done.map((d) => d.step_key));
        const recordedSteps = new Set((await recordedAnswers()).map((r) => r.step_key));
        const partway = [...recordedSteps].some((k) => !completed.has(k) && server.requestsForStep(k).some((r) => r.outcome === undefined));
        return partway || undefined;
      },
      { intervalMs: 20 },
    );
    first.kill('SIGKILL');
    const killedAt = Date.now();
    await first.exited;
    const recordedAtKill = await recordedAnswers();
    const committed = await sql<{ step_key: string }>(
      db.url,
      "SELECT step_key FROM node_executions WHERE run_id = $1 AND status = 'completed'",
      [runId],
    );
    const before = new Map(committed.map((c) => [c.step_key, server.requestsForStep(c.step_key).length]));

    const resumed = await cliRunner(db)(['resume', runId, '--out', mkdtempSync(path.join(tmpdir(), 'dossier-ik-out2-'))], {
      ...env,
      QUEUE_PREFIX: `ikill-${process.pid}`,
    });
    expect(resumed.output).toMatch(/Report written to/);
    expect(resumed.code).toBe(0);
    // Committed turns were not run again…
    for (const [key, n] of before) expect({ key, requests: server.requestsForStep(key).length }).toEqual({ key, requests: n });
    // …and the turn that was cut off reused every answer the killed worker had recorded: none was asked for again. (A
    // request in flight at the kill, or answered but not yet recorded, is asked once more by the resumed worker.)
    const keyOf = (r: FakeChatRequest) => `${r.stepKey} ${JSON.stringify(r.body.messages)}`;
    const recordedIds = new Set(recordedAtKill.map((r) => r.id));
    // Each llm_calls row is one request the server saw (its X-Dossier-Call-Id); a reused answer adds no row.
    const answered = server.requests.filter((r) => r.callId !== undefined && recordedIds.has(r.callId));
    expect(answered.length).toBe(recordedIds.size);
    const received = new Set(answered.map(keyOf));
    const again = server.requests.filter((r) => r.receivedAt > killedAt && received.has(keyOf(r)));
    expect(again.map((r) => `${r.role} ${r.stepKey}`)).toEqual([]);
    // The interrupted turn did pick up where it was: it had recorded answers at the kill and asked again after it.
    const interrupted = new Set(
      server.requests.filter((r) => r.receivedAt > killedAt && r.stepKey?.includes('.interview.')).map((r) => r.stepKey),
    );
    expect(recordedAtKill.some((r) => interrupted.has(r.step_key))).toBe(true);
    const turns = await sql<{ n: string }>(db.url, 'SELECT count(DISTINCT shard) AS n FROM interview_turns WHERE run_id = $1', [runId]);
    expect(Number(turns[0]!.n)).toBe(4);
  });
});
