import type { FakeOpenAIServer } from '@dossier/testing';
import { openAIEmbedderFromEnv } from '../../src/openai/openai-engine-from-env';
import { startFakeLlm } from '../fixtures/fake-llm';
import { MemoryExternalAnswers } from '../fixtures/memory-external-answers';

describe('OpenAIEmbedder against the local server’s /v1/embeddings', () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await startFakeLlm({ embeddingDimension: 32 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const env = () => ({
    OPENAI_BASE_URL: server.baseUrl,
    OPENAI_MODEL: 'chat',
    OPENAI_EMBEDDINGS_MODEL: 'embed',
    OPENAI_EMBEDDINGS_DIMENSIONS: '32',
    OPENAI_RETRY_BASE_MS: '20',
  });

  it('embeds in order, normalised, batched, with the configured model', async () => {
    const embedder = openAIEmbedderFromEnv(env(), null)!;
    const texts = Array.from({ length: 300 }, (_, i) => `text number ${i}`);
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(300);
    expect(vectors[0]!.length).toBe(32);
    expect(Math.hypot(...vectors[7]!)).toBeCloseTo(1, 5);
    expect(await embedder.embed([texts[7]!])).toEqual([vectors[7]]);
    expect(server.counts.embeddingRequests).toBe(4);
    expect(embedder.name).toBe('openai:embed:32');
  });

  it("records each batch in the run's recording it is given, and a replay embeds from it without a request", async () => {
    const recording = new MemoryExternalAnswers();
    const embedder = openAIEmbedderFromEnv(env(), null, recording)!;
    const before = server.counts.embeddingRequests;
    const vectors = await embedder.embed(['alpha', 'beta']);
    expect(server.counts.embeddingRequests).toBe(before + 1);
    expect([...recording.answers.keys()]).toEqual(['embedding {"model":"openai:embed:32","input":["alpha","beta"]}']);

    recording.replaying = true;
    expect(await openAIEmbedderFromEnv(env(), null, recording)!.embed(['alpha', 'beta'])).toEqual(vectors);
    expect(server.counts.embeddingRequests).toBe(before + 1);
    await expect(embedder.embed(['gamma'])).rejects.toThrow(/No recorded answer/);
    expect(server.counts.embeddingRequests).toBe(before + 1);
  });

  it('no embeddings model, no embedder; a wrong dimension is named', async () => {
    expect(openAIEmbedderFromEnv({ OPENAI_BASE_URL: server.baseUrl, OPENAI_MODEL: 'chat' }, null)).toBeNull();
    const wrong = openAIEmbedderFromEnv({ ...env(), OPENAI_EMBEDDINGS_DIMENSIONS: '16' }, null)!;
    await expect(wrong.embed(['x'])).rejects.toThrow(/returned 32 dimensions, configured 16/);
  });
});
