import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROLES } from '@dossier/agents';
import { offlineRoleAnswer, createTestDatabase, FakeOpenAIServer, type FakeChatRequest, type TestDatabase } from '@dossier/testing';
import { cliRunner, EXAMPLES } from './cli-harness';

/*
 * Prompt economy (issue 18 item 5, decision 0036), over every request of two runs against the local OpenAI-compatible
 * server: a hybrid run (survey loop, then interviews, then writing) answered correctly, and a survey run whose section
 * writer makes half its sentences unsupported, so that verification fails them and the repairer is called:
 * - each role's prompts begin with one identical stable part (the system message: persona, task, rules, data policy,
 *   schema; and the same response format), so a provider's prompt cache holds it across calls;
 * - no evidence text goes twice to the same role in one step, neither within one request nor across its requests.
 */

const QUESTION = "What caused the decline of Lake Varen's water level, and how large was it?";
const DOCS = [
  'encyclopedia-lake-varen.md',
  'krwa-annual-water-report-2024.md',
  'eskerford-university-study-summary.md',
  'kessmark-climate-office-bulletin-2024.md',
  'timeline-lake-varen-2014-2025.md',
  'tessel-growers-position-statement.md',
];

/** A correct model: each role's offline answer to the input the engine echoed. */
const offlineAnswer = offlineRoleAnswer(ROLES);

const normal = (t: string): string => t.replace(/\s+/g, ' ').trim();

type Evidence = { id: string; excerpt: string };

/** The evidence a request carried, from the input the engine echoed: excerpts (each id once) and whole source texts. */
function evidenceOf(request: FakeChatRequest): { excerpts: string[]; sources: string[] } {
  const input = request.input as {
    evidence?: Evidence[];
    sentences?: { evidence?: Evidence[] }[];
    source?: { text: string };
  };
  const byId = new Map<string, string>();
  for (const e of [...(input.evidence ?? []), ...(input.sentences ?? []).flatMap((s) => s.evidence ?? [])])
    byId.set(e.id, normal(e.excerpt));
  return { excerpts: [...byId.values()].filter((t) => t.length > 0), sources: input.source ? [normal(input.source.text)] : [] };
}

/** How often a prompt lists an excerpt as evidence ("[E12] text"; a sentence or claim that repeats its words is no listing). */
function listings(prompt: string, excerpt: string): number {
  return prompt.match(new RegExp(`\\[E\\d+\\] ${excerpt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'g'))?.length ?? 0;
}

describe('prompt economy: stable prompt prefixes and evidence sent once per step (two openai runs)', () => {
  let db: TestDatabase;
  const servers: FakeOpenAIServer[] = [];
  let requests: FakeChatRequest[];

  beforeAll(async () => {
    db = await createTestDatabase();
    const corpus = mkdtempSync(path.join(tmpdir(), 'dossier-prompts-corpus-'));
    for (const f of DOCS) copyFileSync(path.join(EXAMPLES, 'corpus', f), path.join(corpus, f));
    const cli = cliRunner(db);
    const ingest = await cli(['ingest', corpus, '--collection', 'prompts']);
    if (ingest.code !== 0) throw new Error(`ingest exited ${ingest.code}:\n${ingest.output.slice(-3000)}`);
    const research = async (server: FakeOpenAIServer, args: string[]): Promise<void> => {
      servers.push(server);
      const out = mkdtempSync(path.join(tmpdir(), 'dossier-prompts-out-'));
      const r = await cli(['research', QUESTION, '--collection', 'prompts', '--engine', 'openai', ...args, '--out', out], {
        OPENAI_BASE_URL: server.baseUrl,
        OPENAI_MODEL: 'fake-model',
        OPENAI_RATE_PER_SECOND: '100',
        OPENAI_MAX_OUTPUT_TOKENS: '32768',
        DOSSIER_LLM_TEST_ECHO: '1',
      });
      if (r.code !== 0) throw new Error(`dossier research exited ${r.code}:\n${r.output.slice(-4000)}`);
    };
    const hybrid = ['--mode', 'hybrid', '--max-iterations', '2', '--perspectives', '2', '--interview-turns', '2'];
    await research(await new FakeOpenAIServer({ answer: offlineAnswer }).start(), hybrid);
    const failing = { seed: 'prompts', rates: {}, roles: { sectionWriter: { unsupported: 0.5 } } };
    await research(await new FakeOpenAIServer({ answer: offlineAnswer, realistic: failing }).start(), [
      '--max-iterations',
      '1',
      '--perspectives',
      '2',
    ]);
    requests = servers.flatMap((s) => s.requests.filter((q) => q.outcome === 200));
  });
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await db?.drop();
  });

  it("the outline architect's prompt shows the source headings its claims sit under (decision 0102)", () => {
    const outlines = requests.filter((q) => q.role === 'outlineArchitect');
    expect(outlines.length).toBeGreaterThan(0);
    for (const q of outlines) {
      const claims = (q.input as { claims: { id: string; statement: string; heading?: string }[] }).claims;
      const headed = claims.filter((c) => c.heading);
      // The corpus is markdown with headings: the offline path names sections from them, and the model sees them too,
      // each heading once with the ids of the claims under it.
      expect(headed.length).toBeGreaterThan(0);
      const prompt = q.body.messages.map((m) => m.content ?? '').join('\n');
      expect(prompt).toMatch(/Name a section by the source heading/);
      for (const c of headed) {
        const line = prompt.split('\n').find((l) => l.startsWith(`"${c.heading!.replace(/"/g, "'")}"`));
        expect({ heading: c.heading, ids: line?.split(': ').pop()?.split(', ') }).toEqual({
          heading: c.heading,
          ids: expect.arrayContaining([c.id]),
        });
      }
    }
  });

  it('each role called more than once sends one identical system message first, with one response format', () => {
    const byRole = new Map<string, FakeChatRequest[]>();
    for (const q of requests) byRole.set(q.role, [...(byRole.get(q.role) ?? []), q]);
    // Roles whose stable part differed before (counts, turns, iterations, batch parts in the system prompt) are among them.
    expect([...byRole.keys()]).toEqual(
      expect.arrayContaining(['evidenceCurator', 'sectionWriter', 'verifier', 'repairer', 'interviewAnalyst', 'interviewExpert']),
    );
    const repeated = [...byRole].filter(([, qs]) => qs.length > 1);
    expect(repeated.length).toBeGreaterThanOrEqual(8);
    for (const [role, qs] of repeated) {
      const first = qs.map((q) => q.body.messages[0]!);
      expect(first.every((m) => m.role === 'system')).toBe(true);
      const systems = new Set(first.map((m) => m.content));
      expect({ role, distinctSystemPrompts: systems.size }).toEqual({ role, distinctSystemPrompts: 1 });
      expect({ role, formats: new Set(qs.map((q) => JSON.stringify(q.body.response_format))).size }).toEqual({ role, formats: 1 });
      // Untrusted data never reaches the stable part (the data policy names the markers; no block opens there).
      expect([...systems][0]).not.toMatch(/<<<DATA [^>]*>>>\n/);
    }
  });

  it('no evidence text is sent twice to the same role in one step', () => {
    const groups = new Map<string, FakeChatRequest[]>();
    // A repair request continues its conversation (the same messages plus the reply and its error): not a new send.
    for (const q of requests.filter((r) => r.body.messages.length === 2)) {
      const key = `${q.stepKey ?? '?'} ${q.role}`;
      groups.set(key, [...(groups.get(key) ?? []), q]);
    }
    let checked = 0;
    for (const [key, qs] of groups) {
      const texts = qs.flatMap((q) => {
        const e = evidenceOf(q);
        return [...e.excerpts, ...e.sources];
      });
      checked += texts.length;
      // Across the step's requests of this role: each text in one request only. Not for the verifier: its sentences go
      // in batches sized to the window (decision 0040), and two batches may cite one excerpt (seen in the frame step,
      // where the introduction and the conclusion cite the same passage). A known cost, named in issue 31's note.
      const twice = texts.filter((t, i) => texts.indexOf(t) !== i);
      if (!key.endsWith(' verifier')) expect({ key, twice }).toEqual({ key, twice: [] });
      // Within a request: each excerpt listed once, each source text written once.
      for (const q of qs) {
        const { excerpts, sources } = evidenceOf(q);
        const user = normal(
          q.body.messages
            .slice(1)
            .map((m) => m.content ?? '')
            .join('\n'),
        );
        for (const t of excerpts)
          expect({ key, text: t.slice(0, 80), times: listings(user, t) }).toEqual({ key, text: t.slice(0, 80), times: 1 });
        for (const t of sources) expect({ key, times: user.split(t).length - 1 }).toEqual({ key, times: 1 });
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
