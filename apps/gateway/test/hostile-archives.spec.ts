import { gzipSync } from 'node:zlib';
import { ImportedRunView, RunView } from '@dossier/contracts';
import { sql } from '@dossier/testing';
import { archiveFile, archiveOf } from './fixtures/hand-made-archive';
import { whileInFlight } from './fixtures/while-in-flight';
import { client, startGateway, type Gateway } from './gateway-harness';

const runsOf = async (gw: Gateway, tenantId: string, status?: string): Promise<number> =>
  Number(
    (
      await sql<{ n: string }>(
        gw.db.url,
        `SELECT count(*) AS n FROM research_runs WHERE tenant_id = $1${status ? ' AND status = $2' : ''}`,
        status ? [tenantId, status] : [tenantId],
      )
    )[0]!.n,
  );

/** Issue 30, item 2: an imported run obeys the importing tenant's policy, and so do its replays; it is always finished. */
describe('security round 2: imports obey the importing tenant', () => {
  let gw: Gateway;
  let strict: { id: string; key: string };
  let open: { id: string; key: string };
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    gw = await startGateway();
    strict = await gw.tenant('strict', {
      engines: ['offline'],
      requiredGates: ['plan'],
      caps: { maxIterations: 1, perspectives: 2, tokens: 100_000, costUsd: 5 },
    });
    open = await gw.tenant('open');
    api = client(gw.url, strict.key);
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  const greedy = archiveOf({
    options: {
      engine: 'openai',
      maxIterations: 20,
      perspectives: 8,
      gates: { plan: 'auto', outline: 'auto', publish: 'auto' },
      budgets: { tokens: 100_000_000, costUsd: 10_000 },
    },
  });

  it("an archive asking for openai, 20 iterations, 8 analysts, automatic gates and huge budgets is stored within the importer's policy, saying what changed", async () => {
    const res = await api('POST', '/v1/runs/import', { archive: archiveFile(greedy) });
    expect(res.status).toBe(201);
    const run = ImportedRunView.parse(res.json);
    expect(run.status).toBe('completed');
    expect(run.options).toMatchObject({
      engine: 'offline',
      maxIterations: 1,
      perspectives: 2,
      gates: { plan: 'required', outline: 'auto', publish: 'auto' },
      budgets: { tokens: 100_000, costUsd: 5 },
    });
    expect(run.clamped).toEqual(
      expect.arrayContaining([
        { option: 'engine', from: 'openai', to: 'offline' },
        { option: 'budgets.tokens', from: 100_000_000, to: 100_000 },
        { option: 'budgets.costUsd', from: 10_000, to: 5 },
        { option: 'maxIterations', from: 20, to: 1 },
        { option: 'perspectives', from: 8, to: 2 },
        { option: 'gates.plan', from: 'auto', to: 'required' },
      ]),
    );
    expect(run.clamped).toHaveLength(6);
    // Stored so, and the audit log says what the policy changed.
    expect(RunView.parse((await api('GET', `/v1/runs/${run.id}`)).json).options).toMatchObject({ engine: 'offline', maxIterations: 1 });
    const audit = await api('GET', `/v1/runs/${run.id}/audit`);
    const imported = audit.json.events.find((e: { kind: string }) => e.kind === 'run_imported');
    expect(imported.payload).toMatchObject({ from: greedy.run.id, status: 'completed', clamped: run.clamped });
    // A tenant without a policy imports it as it is.
    const plain = ImportedRunView.parse((await client(gw.url, open.key)('POST', '/v1/runs/import', { archive: archiveFile(greedy) })).json);
    expect(plain.options).toMatchObject({ engine: 'openai', maxIterations: 20 });
    expect(plain.clamped).toEqual([]);
  });

  it('a replay of the imported run is under the same policy as a new run: offline, the plan gate required, within the caps', async () => {
    const imported = ImportedRunView.parse((await api('POST', '/v1/runs/import', { archive: archiveFile(greedy) })).json);
    const replay = await api('POST', `/v1/runs/${imported.id}/replay`, {});
    expect(replay.status).toBe(201);
    expect(RunView.parse(replay.json).options).toMatchObject({
      engine: 'offline',
      maxIterations: 1,
      perspectives: 2,
      gates: { plan: 'required', outline: 'auto', publish: 'auto' },
      budgets: { tokens: 100_000, costUsd: 5 },
      replay: { of: imported.id },
    });
    // From a node, a replay calls the model live: with an engine the tenant may not use, it is refused before it starts.
    const openApi = client(gw.url, open.key);
    const openRun = ImportedRunView.parse((await openApi('POST', '/v1/runs/import', { archive: archiveFile(greedy) })).json);
    await sql(gw.db.url, `UPDATE tenants SET policy = $2::jsonb WHERE id = $1`, [open.id, JSON.stringify({ engines: ['offline'] })]);
    const before = await runsOf(gw, open.id);
    const refused = await openApi('POST', `/v1/runs/${openRun.id}/replay`, { from: 'draft' });
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({ error: 'policy_violation', details: { cap: 'engines', requested: 'openai' } });
    expect(await runsOf(gw, open.id)).toBe(before);
  });

  it('an archive whose run is "running" becomes a failed run; resuming an imported run is a 409 that points to replay; nothing is left running', async () => {
    const tenant = await gw.tenant('resumer');
    const resumer = client(gw.url, tenant.key);
    for (const status of ['running', 'awaiting_approval', 'queued', 'cancelled', 'failed'] as const) {
      const res = await resumer('POST', '/v1/runs/import', { archive: archiveFile(archiveOf({ status })) });
      expect({ status, code: res.status }).toEqual({ status, code: 201 });
      const run = ImportedRunView.parse(res.json);
      expect(run.status).toBe('failed');
      expect(run.failureReason).toMatch(new RegExp(`imported from an archive of a run that was ${status}`));
      const resume = await resumer('POST', `/v1/runs/${run.id}/resume`, {});
      expect(resume.status).toBe(409);
      expect(resume.json.message).toMatch(/was imported from an archive.*cannot be resumed\. Replay it instead/);
    }
    expect(await runsOf(gw, tenant.id)).toBe(5);
    expect(await runsOf(gw, tenant.id, 'failed')).toBe(5);
  });
});

/** Issue 30, item 3: a hostile archive costs seconds of a worker thread, ends in a 413/422, and everyone else is answered. */
describe('security round 2: bounded work on hostile archives', () => {
  let gw: Gateway;
  let attacker: { id: string; key: string };
  let bystander: { id: string; key: string };
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    gw = await startGateway();
    attacker = await gw.tenant('attacker');
    bystander = await gw.tenant('bystander');
    api = client(gw.url, attacker.key);
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  async function hostile(archive: string, status: number, error: string, message: RegExp): Promise<void> {
    const { result, probes } = await whileInFlight(gw.url, bystander.key, () => api('POST', '/v1/runs/import', { archive }));
    expect({ status: result.status, error: result.json?.error }).toEqual({ status, error });
    expect(result.json.message).toMatch(message);
    // Everyone else was answered meanwhile, and nothing of the archive was stored.
    expect(probes.healthz.length).toBeGreaterThan(0);
    expect(new Set([...probes.healthz, ...probes.other])).toEqual(new Set([200]));
    expect(await runsOf(gw, attacker.id)).toBe(0);
    expect(
      Number((await sql<{ n: string }>(gw.db.url, 'SELECT count(*) AS n FROM recorded_answers WHERE tenant_id = $1', [attacker.id]))[0]!.n),
    ).toBe(0);
  }

  it('a report of 64 MiB of "A" (a small request) is a 422 naming the string bound, before the string is ever built', async () => {
    const archive = archiveFile(archiveOf({ reportContent: 'A'.repeat(64 * 1024 * 1024) }));
    expect(archive.length).toBeLessThan(256 * 1024);
    await hostile(archive, 422, 'run_archive_invalid', /a string longer than 16777216 characters/);
  });

  it('a gzip bomb (160 KiB that unpack to 160 MiB) is a 413: decompression stops at the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(160 * 1024 * 1024, 0x20), { level: 9 }).toString('base64');
    expect(bomb.length).toBeLessThan(256 * 1024);
    await hostile(bomb, 413, 'run_archive_too_large', /unpacks to more than 67108864 bytes/);
  });

  it('NUL in the question, stop reason, report, call name or answer: a 422 naming it, never a 500', async () => {
    for (const parts of [
      { question: 'Why\u0000?' },
      { stopReason: 'max\u0000iterations' },
      { reportContent: '# Report\u0000' },
      { callName: 'scope\u0000request' },
      { answerBody: { content: 'an answer with \u0000 inside' } },
    ]) {
      await hostile(archiveFile(archiveOf(parts)), 422, 'run_archive_invalid', /a NUL character in a string/);
    }
    await hostile(
      archiveFile(archiveOf({ answerBody: { content: 'half a pair \ud800' } })),
      422,
      'run_archive_invalid',
      /lone UTF-16 surrogate/,
    );
  });

  it('an answer nested 5,000 or 200,000 deep is a 422 naming the depth bound, not a stack overflow', async () => {
    for (const depth of [5_000, 200_000]) {
      const base = JSON.stringify(archiveOf({ answerBody: { placeholder: true } }));
      const json = base.replace('{"placeholder":true}', `${'['.repeat(depth)}1${']'.repeat(depth)}`);
      await hostile(archiveFile({ json }), 422, 'run_archive_invalid', /nested deeper than 64 levels/);
    }
  });

  it('an archive with 25,000 calls, more than any run makes, is a 422 naming the item bound', async () => {
    const archive = archiveOf();
    const call = archive.recording.calls[0]!;
    archive.recording.calls = Array.from({ length: 25_000 }, () => call);
    await hostile(archiveFile(archive), 422, 'run_archive_invalid', /more than 20000 items/);
  });
});
