import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OpenAIEmbedder } from '@dossier/agents';
import { FakeOpenAIServer } from '@dossier/testing';
import { HashingEmbedder, LanceVectorStore, type Embedder } from '@dossier/vectors';
import { collectionFor } from '../src/embeddings/run-embedder';
import { groupDuplicateEvidence } from '../src/claims/evidence-duplicates';
import { contradictionCandidates } from '../src/contradictions/contradiction-candidates';
import { independentSources, scoreStatus } from '../src/claims/independent-sources';

const SCOPE = { tenantId: '0b6a1f3e-2c4d-4e5f-8a9b-0c1d2e3f4a5b', runId: '7d9e8f0a-1b2c-4d3e-9f4a-5b6c7d8e9f0a' };
const UNLIMITED = { acquire: async () => undefined, pauseFor: async () => undefined };

describe('evidence embeddings: de-duplication across sources and contradiction candidates', () => {
  let server: FakeOpenAIServer;
  let store: LanceVectorStore;
  let openai: Embedder;
  const hashing = new HashingEmbedder();

  beforeAll(async () => {
    // The realistic model's embeddings carry meaning (a concept and synonym table), with no defects asked for.
    server = await new FakeOpenAIServer({ answer: () => ({}), realistic: { rates: {} }, embeddingDimension: 64 }).start();
    openai = new OpenAIEmbedder({
      baseUrl: server.baseUrl,
      apiKey: 'test',
      model: 'fake-embedder',
      dimension: 64,
      limiter: UNLIMITED,
      timeoutMs: 10_000,
      maxRetries: 1,
      retryBaseMs: 50,
      retryMaxMs: 200,
    });
    store = await LanceVectorStore.open({ directory: mkdtempSync(path.join(tmpdir(), 'dossier-evidence-vectors-')) });
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it('near-duplicate evidence from two sources is merged; the same words with another figure are not', async () => {
    const evidence = [
      { id: 'e1', snapshotId: 's-krwa', excerpt: 'Annual irrigation withdrawals from Lake Varen average 38 million cubic metres.' },
      { id: 'e2', snapshotId: 's-courier', excerpt: 'Yearly irrigation abstraction from Lake Varen averages 38 million m³.' },
      { id: 'e3', snapshotId: 's-growers', excerpt: 'Annual irrigation withdrawals from Lake Varen average 45 million cubic metres.' },
      { id: 'e4', snapshotId: 's-courier', excerpt: 'Rainfall in the Varen catchment was 12% below average between 2015 and 2024.' },
    ];
    const leads = await groupDuplicateEvidence(store, collectionFor('evidence', openai), openai, evidence, [], SCOPE);
    expect(leads.get('e2')).toBe('e1');
    expect(leads.get('e1') ?? 'e1').toBe('e1');
    expect(leads.get('e3') ?? 'e3').toBe('e3');
    expect(leads.get('e4') ?? 'e4').toBe('e4');
    expect(await store.count(collectionFor('evidence', openai), { ...SCOPE, kind: 'evidence' })).toBe(4);
    // Every vector went through the embeddings endpoint.
    expect(server.counts.embeddingRequests).toBeGreaterThan(0);
  });

  it('a contradiction pair that shares few words but means the opposite is a candidate with the OpenAI embedder, not with hashing', async () => {
    const claims = [
      { id: 'c-shrank', statement: 'The reservoir shrank sharply during the drought years.', evidenceIds: ['x1'] },
      { id: 'c-climbed', statement: "Lake Varen's water level climbed steadily over the decade.", evidenceIds: ['x2'] },
      { id: 'c-fish', statement: 'Anglers report that trout stocks recovered after restocking.', evidenceIds: ['x3'] },
    ];
    const excerpts = new Map([
      ['x1', 'By every account the reservoir shrank sharply during the drought years.'],
      ['x2', "Gauge readings show Lake Varen's water level climbed steadily over the decade."],
      ['x3', 'Anglers report that trout stocks recovered after restocking in 2022.'],
    ]);
    const pairs = async (embedder: Embedder, runId: string) =>
      contradictionCandidates(
        store,
        embedder,
        { claims: collectionFor('claims', embedder), evidence: collectionFor('evidence', embedder) },
        claims,
        new Set(['c-shrank']),
        excerpts,
        { ...SCOPE, runId },
      );
    const shared = (a: string, b: string) => {
      const words = (t: string) => new Set(t.toLowerCase().match(/[a-z]+/g));
      const x = words(a);
      return [...words(b)].filter((w) => x.has(w) && w.length > 3);
    };
    expect(shared(claims[0]!.statement, claims[1]!.statement)).toEqual([]);
    expect(await pairs(openai, '3c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f')).toContainEqual(['c-climbed', 'c-shrank']);
    expect(await pairs(openai, '3c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f')).not.toContainEqual(['c-fish', 'c-shrank']);
    expect(await pairs(hashing, '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b')).not.toContainEqual(['c-climbed', 'c-shrank']);
  });

  it('epistemic status counts independent sources: two excerpts of one page, or one text syndicated, count once', () => {
    const sources = new Map([
      ['a1', { id: 'a1', excerpt: 'The level fell by 4.2 metres.', cluster: 'krwa' }],
      ['a2', { id: 'a2', excerpt: 'Irrigation did not cause it.', cluster: 'krwa' }],
      ['b1', { id: 'b1', excerpt: 'The level fell by 4.2 metres.', cluster: 'courier' }],
      ['c1', { id: 'c1', excerpt: 'Gauges show a 4.2 m fall in the level.', cluster: 'university' }],
    ]);
    expect(independentSources(['a1', 'a2'], sources)).toBe(1);
    expect(independentSources(['a1', 'b1'], sources)).toBe(1);
    expect(independentSources(['a1', 'b1', 'c1'], sources)).toBe(2);
    expect(scoreStatus('established', 1)).toBe('reported');
    expect(scoreStatus('reported', 2)).toBe('established');
    expect(scoreStatus('speculative', 3)).toBe('speculative');
    expect(scoreStatus('contested', 3)).toBe('contested');
  });
});
