import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { classifyError } from '@dossier/errors';
import type { FakeOpenAIOptions, FakeOpenAIServer } from '@dossier/testing';
import { LlmUnavailableError, PreflightError } from '../../src/errors';
import { OpenAIEngine } from '../../src/openai/openai-engine';
import { director } from '../../src/roles';
import { memoryHooks, startFakeLlm, testConfig } from '../fixtures/fake-llm';
import { ROLE_INPUTS } from '../fixtures/role-inputs';

/*
 * The preflight (decision 0042): before the first live request, GET /models (free) checks reachability, the key and
 * the models; a model the list does not name gets one tiny, recorded chat request; the embeddings endpoint embeds one
 * text. What fails is a PreflightError naming the variable, and no role request is sent.
 */
const UNLIMITED = { acquire: async () => undefined, pauseFor: async () => undefined };
const servers: FakeOpenAIServer[] = [];

async function fake(options: Partial<FakeOpenAIOptions> = {}): Promise<FakeOpenAIServer> {
  const s = await startFakeLlm(options);
  servers.push(s);
  return s;
}

function engine(server: FakeOpenAIServer, env: Record<string, string> = {}): OpenAIEngine {
  return new OpenAIEngine({ config: testConfig(server, env), limiter: UNLIMITED, testEcho: true, preflight: true });
}

/** The error a call fails with, or a failure when it does not fail. */
async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the call to fail');
}

afterAll(async () => {
  for (const s of servers) await s.stop();
});

describe('preflight', () => {
  it('a listed model: one GET /models, then the role request; once per engine', async () => {
    const server = await fake();
    const e = engine(server, { OPENAI_EMBEDDINGS_MODEL: 'fake-embedder', OPENAI_EMBEDDINGS_DIMENSIONS: '64' });
    const hooks = memoryHooks();
    await e.complete(director, ROLE_INPUTS.director, hooks);
    await e.complete(director, ROLE_INPUTS.director, hooks);
    expect(server.counts.modelListRequests).toBe(1);
    expect(server.counts.embeddingRequests).toBe(1);
    expect(server.counts.chatRequests).toBe(2);
    expect(Object.keys(server.counts.byRole)).toEqual(['director']);
    expect(hooks.records.every((r) => !r.notes?.preflight)).toBe(true);
  });

  it('a key the endpoint refuses: PreflightError naming OPENAI_API_KEY, unrecoverable, nothing sent', async () => {
    const server = await fake({ apiKey: 'sk-right' });
    const hooks = memoryHooks();
    const err = await failure(engine(server, { OPENAI_API_KEY: 'sk-wrong' }).complete(director, ROLE_INPUTS.director, hooks));
    expect(err).toBeInstanceOf(PreflightError);
    expect(err.message).toMatch(/OPENAI_API_KEY/);
    expect((err as PreflightError).details?.['variables']).toEqual(['OPENAI_API_KEY']);
    expect(classifyError(err)).toBe('unrecoverable');
    expect(server.counts.chatRequests).toBe(0);
    expect(hooks.records).toEqual([]);
  });

  it('nothing listening: PreflightError naming OPENAI_BASE_URL', async () => {
    // A port that was free a moment ago: connection refused.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const server = await fake();
    const e = engine(server, { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI_MAX_RETRIES: '0' });
    const hooks = memoryHooks();
    const err = await failure(e.complete(director, ROLE_INPUTS.director, hooks));
    expect(err).toBeInstanceOf(PreflightError);
    expect(err.message).toMatch(/not reachable.*OPENAI_BASE_URL/);
    expect(hooks.records).toEqual([]);
  });

  it('a model the list does not name and the server does not serve: PreflightError naming its own variable', async () => {
    const server = await fake({ models: ['fake-model'] });
    server.script('preflight', { kind: 'status', status: 404, message: 'The model `no-such-judge` does not exist.' });
    const hooks = memoryHooks();
    const err = await failure(engine(server, { OPENAI_MODEL_VERIFIER: 'no-such-judge' }).complete(director, ROLE_INPUTS.director, hooks));
    expect(err).toBeInstanceOf(PreflightError);
    expect(err.message).toMatch(/does not know the model no-such-judge.*OPENAI_MODEL_VERIFIER/);
    expect((err as PreflightError).details?.['variables']).toEqual(['OPENAI_MODEL_VERIFIER']);
    // The ping was received, so it is recorded; no role request followed.
    expect(server.counts.byRole).toEqual({ preflight: 1 });
    expect(hooks.records).toEqual([expect.objectContaining({ outcome: 'error', notes: { preflight: true } })]);
  });

  it('a model the list does not name but the server serves (llama.cpp, servers without /models): one recorded ping, then the run', async () => {
    for (const options of [{ models: ['models/llama-3.1-8b.gguf'] }, { noModelList: true }]) {
      const server = await fake(options);
      const hooks = memoryHooks();
      await engine(server).complete(director, ROLE_INPUTS.director, hooks);
      expect(server.counts.byRole).toEqual({ preflight: 1, director: 1 });
      expect(hooks.records.map((r) => [r.outcome, r.notes?.preflight ?? false])).toEqual([
        ['ok', true],
        ['ok', false],
      ]);
    }
  });

  it('an embeddings endpoint that answers 404: PreflightError naming the embeddings settings, no chat request', async () => {
    const server = await fake({ noEmbeddings: true });
    const hooks = memoryHooks();
    const err = await failure(
      engine(server, { OPENAI_EMBEDDINGS_MODEL: 'fake-embedder', OPENAI_EMBEDDINGS_DIMENSIONS: '64' }).complete(
        director,
        ROLE_INPUTS.director,
        hooks,
      ),
    );
    expect(err).toBeInstanceOf(PreflightError);
    expect(err.message).toMatch(/embeddings endpoint.*OPENAI_BASE_URL.*unset OPENAI_EMBEDDINGS_MODEL/);
    expect((err as PreflightError).details?.['variables']).toEqual(['OPENAI_BASE_URL', 'OPENAI_EMBEDDINGS_MODEL']);
    expect(server.counts.chatRequests).toBe(0);
  });

  it('embeddings of another size than configured: PreflightError naming OPENAI_EMBEDDINGS_DIMENSIONS', async () => {
    const server = await fake({ embeddingDimension: 32 });
    const err = await failure(
      engine(server, { OPENAI_EMBEDDINGS_MODEL: 'fake-embedder', OPENAI_EMBEDDINGS_DIMENSIONS: '64' }).complete(
        director,
        ROLE_INPUTS.director,
        memoryHooks(),
      ),
    );
    expect(err).toBeInstanceOf(PreflightError);
    expect(err.message).toMatch(/returns 32 dimensions, configured 64: set OPENAI_EMBEDDINGS_DIMENSIONS=32/);
  });

  it('an endpoint that keeps answering 5xx is an outage, retried later, not a setting; a failed preflight is tried again', async () => {
    const server = await fake({ models: ['fake-model'] });
    server.script('preflight', ...Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 503 })));
    const e = engine(server, { OPENAI_MODEL_VERIFIER: 'other-judge', OPENAI_MAX_RETRIES: '2' });
    const err = await failure(e.complete(director, ROLE_INPUTS.director, memoryHooks()));
    expect(err).toBeInstanceOf(LlmUnavailableError);
    expect(classifyError(err)).toBe('retryable');
    // The next call preflights again (the last scripted 503, then the ping passes) and is answered.
    const hooks = memoryHooks();
    await e.complete(director, ROLE_INPUTS.director, hooks);
    expect(hooks.records.at(-1)).toMatchObject({ outcome: 'ok' });
    expect(server.counts.modelListRequests).toBe(2);
  });
});
