import { ApiKeyRepository } from '@dossier/db';
import { sql, waitFor } from '@dossier/testing';
import { client, QUESTION, startGateway, uploadCorpus, type Gateway } from './gateway-harness';

/**
 * Approvals that carry the reviewer's direct edits (docs/decisions/0017), `GET /v1/me`, and the model use
 * and counters on the run view.
 */
describe('gateway: approving an edited plan or outline; who am I; run totals', () => {
  let gw: Gateway;
  let api: ReturnType<typeof client>;
  let tenantId: string;

  beforeAll(async () => {
    gw = await startGateway({ workers: true });
    const t = await gw.tenant('editors', { requiredGates: ['plan'], caps: { maxIterations: 2, tokens: 50_000 }, engines: ['offline'] });
    tenantId = t.id;
    api = client(gw.url, t.key);
    await uploadCorpus(api, 'varen');
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
  });

  async function openGate(runId: string, gate: string): Promise<any> {
    let found: any;
    await waitFor(
      `gate ${gate} open`,
      async () => {
        found = (await api('GET', `/v1/runs/${runId}/approvals`)).json.items.find((a: any) => a.gate === gate && a.status === 'open');
        return Boolean(found);
      },
      { intervalMs: 100 },
    );
    return found;
  }

  it('GET /v1/me names the principal, role, tenant and the effective policy; a viewer cannot write', async () => {
    const me = await api('GET', '/v1/me');
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({
      principal: { name: 'editors-robot', role: 'member' },
      canWrite: true,
      tenant: { id: tenantId, name: 'editors' },
      policy: {
        requiredGates: ['plan'],
        engines: ['offline'],
        searchProviders: ['corpus', 'searxng', 'tavily', 'brave'],
        caps: { maxIterations: 2, tokens: 50_000 },
      },
      defaults: { engine: 'offline', maxIterations: 2, perspectives: 3 },
    });
    const { key } = await gw.app.get(ApiKeyRepository).create(tenantId, 'reader', 'viewer');
    const viewer = await client(gw.url, key)('GET', '/v1/me');
    expect(viewer.json).toMatchObject({ principal: { name: 'reader', role: 'viewer' }, canWrite: false });
    expect((await client(gw.url)('GET', '/v1/me')).status).toBe(401);
  });

  it('an approval with an edited plan: the run researches exactly that plan; the audit log holds the diff', async () => {
    const created = await api('POST', '/v1/runs', {
      question: QUESTION,
      options: { collection: 'varen', perspectives: 2, maxIterations: 1 },
    });
    expect(created.status).toBe(201);
    expect(created.json.usage).toEqual({ llmCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0 });
    const runId = created.json.id;
    const gate = await openGate(runId, 'plan');
    const plan = gate.subject;
    expect(plan.perspectives).toHaveLength(2);
    expect(plan.perspectives[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      role: expect.any(String),
      affiliation: expect.any(String),
      focus: expect.any(String),
    });
    const dropped = plan.questions.at(-1);
    const renamed = plan.perspectives[0];
    const edited = {
      perspectives: [
        { ...renamed, name: 'Hydrology Lead' },
        plan.perspectives[1],
        {
          name: 'Permit Auditor',
          role: 'water regulator',
          affiliation: 'national water agency',
          focus: 'permits, abstraction limits and rules',
        },
      ],
      questions: [
        ...plan.questions
          .slice(0, -1)
          .map((q: any) => ({ ...q, perspective: q.perspective === renamed.name ? 'Hydrology Lead' : q.perspective })),
        { text: 'Which abstraction permits were granted around Lake Varen?', priority: 99, perspective: 'Permit Auditor' },
      ],
    };
    // The same contract refuses a broken edit (a question of an analyst who is not in the plan), and ids from elsewhere.
    const broken = await api('POST', `/v1/approvals/${gate.id}`, {
      decision: 'approve',
      plan: { ...edited, questions: [...edited.questions, { text: 'Who is this?', priority: 5, perspective: 'Nobody' }] },
    });
    expect(broken.status).toBe(400);
    expect(broken.json.details.issues.map((i: any) => i.path)).toContain(`plan.questions.${edited.questions.length}.perspective`);
    const foreign = await api('POST', `/v1/approvals/${gate.id}`, {
      decision: 'approve',
      plan: {
        ...edited,
        questions: [
          ...edited.questions,
          { id: '00000000-0000-4000-8000-000000000000', text: 'A stranger?', priority: 5, perspective: null },
        ],
      },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.json.message).toMatch(/not in the plan under review/);
    expect(
      (
        await api('POST', `/v1/approvals/${gate.id}`, {
          decision: 'approve',
          outline: { sections: [{ title: 'x', purpose: '', claimIds: [] }] },
        })
      ).status,
    ).toBe(400);
    // Nothing was applied by the refused requests.
    expect((await api('GET', `/v1/runs/${runId}/approvals`)).json.items[0].subject).toEqual(plan);

    const approved = await api('POST', `/v1/approvals/${gate.id}`, { decision: 'approve', plan: edited });
    expect(approved.status).toBe(200);
    expect(approved.json.status).toBe('approved');
    await waitFor('run completed', async () => (await api('GET', `/v1/runs/${runId}`)).json.status === 'completed', { intervalMs: 200 });

    const questions = await sql<{ id: string; text: string; status: string; perspective: string | null }>(
      gw.db.url,
      `SELECT q.id, q.text, q.status, p.name AS perspective FROM research_questions q LEFT JOIN perspectives p ON p.id = q.perspective_id
       WHERE q.run_id = $1 AND q.iteration = 0`,
      [runId],
    );
    const live = questions.filter((q) => q.status !== 'dropped');
    expect(live.map((q) => q.text).sort()).toEqual(edited.questions.map((q: any) => q.text).sort());
    expect(questions.find((q) => q.id === dropped.id)!.status).toBe('dropped');
    expect(live.find((q) => /abstraction permits/.test(q.text))!.perspective).toBe('Permit Auditor');
    const searched = await sql<{ question_id: string }>(gw.db.url, 'SELECT DISTINCT question_id FROM search_plans WHERE run_id = $1', [
      runId,
    ]);
    expect(searched.map((s) => s.question_id)).not.toContain(dropped.id);
    expect(searched.map((s) => s.question_id)).toContain(live.find((q) => /abstraction permits/.test(q.text))!.id);
    const panel = await sql<{ name: string }>(gw.db.url, 'SELECT name FROM perspectives WHERE run_id = $1 ORDER BY name', [runId]);
    expect(panel.map((p) => p.name)).toEqual(['Hydrology Lead', plan.perspectives[1].name, 'Permit Auditor'].sort());

    const audit = (await api('GET', `/v1/runs/${runId}/audit`)).json;
    expect(audit.verification.ok).toBe(true);
    const edit = audit.events.find((e: any) => e.kind === 'plan_edited');
    expect(edit.actor).toMatch(/^editors-robot \(key /);
    expect(edit.payload.diff.perspectives.added).toEqual([expect.objectContaining({ name: 'Permit Auditor' })]);
    expect(edit.payload.diff.perspectives.changed).toEqual([
      { id: renamed.id, before: { name: renamed.name }, after: { name: 'Hydrology Lead' } },
    ]);
    expect(edit.payload.diff.questions.removed).toEqual([expect.objectContaining({ id: dropped.id, text: dropped.text })]);
    expect(edit.payload.diff.questions.added).toEqual([expect.objectContaining({ perspective: 'Permit Auditor' })]);
    // Renaming an analyst does not count as changing its questions.
    expect(edit.payload.diff.questions.changed).toEqual([]);
    expect(audit.events.find((e: any) => e.kind === 'gate_decided').payload.edited).toBe(true);

    const view = (await api('GET', `/v1/runs/${runId}`)).json;
    expect(view.progress.sources).toBeGreaterThan(0);
    expect(view.progress.evidence).toBeGreaterThan(0);
    expect(view.progress.claims).toBeGreaterThan(0);
    expect(view.progress.verification.checked).toBeGreaterThan(0);
    // Model requests only: the offline engine's plays are llm_calls rows but no request (decision 0040).
    const calls = await sql<{ n: string }>(
      gw.db.url,
      "SELECT count(*)::text AS n FROM llm_calls WHERE run_id = $1 AND engine <> 'offline'",
      [runId],
    );
    expect(view.usage.llmCalls).toBe(Number(calls[0]!.n));
    const list = (await api('GET', '/v1/runs')).json;
    expect(list.items.find((r: any) => r.id === runId).usage).toEqual(view.usage);
    expect(list.items[0].progress).toBeUndefined();
  }, 300_000);

  it('an approval with an edited outline: merged and reordered sections are drafted as edited', async () => {
    const created = await api('POST', '/v1/runs', {
      question: QUESTION,
      options: { collection: 'varen', perspectives: 2, maxIterations: 1, gates: { plan: 'required', outline: 'required' } },
    });
    const runId = created.json.id;
    expect((await api('POST', `/v1/approvals/${(await openGate(runId, 'plan')).id}`, { decision: 'approve' })).status).toBe(200);
    const gate = await openGate(runId, 'outline');
    const sections = gate.subject.sections;
    // Two sections or more (decision 0102's titles leave the demo corpus's question two): every section but the last
    // merged into one (with two, the first renamed), the last moved to the front and renamed.
    expect(sections.length).toBeGreaterThanOrEqual(2);
    const rest = sections.slice(0, -1);
    const merged = {
      title: rest.length > 1 ? rest.map((s: any) => s.title).join(' and ') : `${rest[0].title}: the whole picture`,
      purpose: rest[0].purpose,
      claimIds: rest.flatMap((s: any) => s.claimIds),
    };
    const last = { ...sections.at(-1), title: 'What the sources disagree on', position: undefined };
    const edited = [last, merged];
    const misplaced = await api('POST', `/v1/approvals/${gate.id}`, {
      decision: 'approve',
      outline: { sections: sections.slice().reverse() },
    });
    expect(misplaced.status).toBe(400);
    const unknownClaim = await api('POST', `/v1/approvals/${gate.id}`, {
      decision: 'approve',
      outline: { sections: [{ ...merged, claimIds: ['00000000-0000-4000-8000-000000000000'] }] },
    });
    expect(unknownClaim.status).toBe(400);
    expect(unknownClaim.json.message).toMatch(/not a claim of this run/);
    expect((await api('POST', `/v1/approvals/${gate.id}`, { decision: 'approve', outline: { sections: edited } })).status).toBe(200);
    await waitFor('run completed', async () => (await api('GET', `/v1/runs/${runId}`)).json.status === 'completed', { intervalMs: 200 });
    const drafted = await sql<{ position: number; title: string }>(
      gw.db.url,
      `SELECT DISTINCT o.position, o.title FROM section_drafts d JOIN outline_sections o ON o.id = d.section_id WHERE d.run_id = $1 ORDER BY o.position`,
      [runId],
    );
    expect(drafted.map((d) => d.title)).toEqual(edited.map((s: any) => s.title));
    const report = (await api('GET', `/v1/runs/${runId}/report.json`)).json;
    const bodyTitles = report.sections.filter((s: any) => s.kind === 'body').map((s: any) => s.title);
    expect(bodyTitles[0]).toBe('What the sources disagree on');
    const audit = (await api('GET', `/v1/runs/${runId}/audit`)).json;
    const edit = audit.events.find((e: any) => e.kind === 'outline_edited');
    expect(edit.payload.diff.after.map((s: any) => s.title)).toEqual(edited.map((s: any) => s.title));
    expect(edit.payload.diff.before).toHaveLength(sections.length);
  }, 300_000);
});
