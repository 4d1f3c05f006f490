import { CreatedShareView, RunView, SharedReportView, ShareView } from '@dossier/contracts';
import { ApiKeyRepository } from '@dossier/db';
import { sql, StopWaiting, waitFor } from '@dossier/testing';
import { client, QUESTION, startGateway, uploadCorpus, type Gateway, type Reply } from './gateway-harness';

const SMALL = { collection: 'varen', perspectives: 2, maxIterations: 1 };

/**
 * Issue 27 item 6: read-only share links to a report (decision 0051) and follow-up runs (decision 0052), over the API.
 * A link opens its report, figures and sources and nothing else, for no longer than it works; a follow-up's corpus
 * is the first run's sources.
 */
describe('gateway: share links and follow-ups', () => {
  let gw: Gateway;
  let acme: { id: string; key: string };
  let member: ReturnType<typeof client>;
  let viewer: ReturnType<typeof client>;
  let globex: ReturnType<typeof client>;
  let runId: string;

  const completed = (api: ReturnType<typeof client>, id: string) =>
    waitFor(`run ${id} to complete`, async () => {
      const run = RunView.parse((await api('GET', `/v1/runs/${id}`)).json);
      if (run.status === 'failed' || run.status === 'cancelled') throw new StopWaiting(`run ${id} ${run.status}: ${run.failureReason}`);
      return run.status === 'completed' ? run : undefined;
    });

  beforeAll(async () => {
    gw = await startGateway({ workers: true });
    acme = await gw.tenant('acme');
    member = client(gw.url, acme.key);
    viewer = client(gw.url, (await gw.app.get(ApiKeyRepository).create(acme.id, 'reader', 'viewer')).key);
    globex = client(gw.url, (await gw.tenant('globex')).key);
    await uploadCorpus(member, 'varen');
    const started = await member('POST', '/v1/runs', { question: QUESTION, options: SMALL });
    expect(started.status).toBe(201);
    runId = started.json.id;
    await completed(member, runId);
  });
  afterAll(async () => {
    await gw?.close();
  });

  const expectError = (res: Reply, status: number, error: string) =>
    expect({ status: res.status, error: res.json?.error }).toEqual({ status, error });

  it('a link opens the report, its figures and its sources; it reaches nothing else; revoked or expired, it is a 410', async () => {
    // Who may make one: a viewer reads the list but cannot hand access out; another tenant does not see the run.
    expectError(await viewer('POST', `/v1/runs/${runId}/shares`, {}), 403, 'forbidden');
    expect((await viewer('GET', `/v1/runs/${runId}/shares`)).json).toEqual({ items: [] });
    expectError(await globex('POST', `/v1/runs/${runId}/shares`, {}), 404, 'not_found');
    expectError(await globex('GET', `/v1/runs/${runId}/shares`), 404, 'not_found');
    expectError(await member('POST', `/v1/runs/${runId}/shares`, { expiresInHours: 0 }), 400, 'validation_failed');
    expectError(await member('POST', `/v1/runs/${runId}/shares`, { expiresInHours: 721 }), 400, 'validation_failed');
    expectError(await member('POST', `/v1/runs/${runId}/shares`, { expiresInHours: 2, role: 'member' }), 400, 'validation_failed');

    const created = await member('POST', `/v1/runs/${runId}/shares`, { expiresInHours: 2 });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const share = CreatedShareView.parse(created.json);
    expect(share.token).toMatch(/^dsh_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(share.path).toBe(`/shared#${share.token}`);
    expect(share.state).toBe('active');
    const hours = (Date.parse(share.expiresAt) - Date.parse(share.createdAt)) / 3_600_000;
    expect(hours).toBeCloseTo(2, 3);
    // Stored hashed: the secret is nowhere in the table.
    const secret = share.token.split('_').slice(2).join('_');
    const [row] = await sql<{ secret_hash: string; prefix: string }>(
      gw.db.url,
      'SELECT secret_hash, prefix FROM report_shares WHERE id = $1',
      [share.id],
    );
    expect(row!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret);

    const holder = client(gw.url, share.token);
    const summary = SharedReportView.parse((await holder('GET', '/v1/shared')).json);
    expect(summary.run).toMatchObject({ id: runId, question: QUESTION });
    expect(summary.share.expiresAt).toBe(share.expiresAt);
    expect(summary.verification?.checked).toBeGreaterThan(0);
    const report = await holder('GET', '/v1/shared/report.json');
    expect(report.status).toBe(200);
    expect(report.headers.get('cache-control')).toBe('private, no-store');
    expect(report.json).toEqual((await member('GET', `/v1/runs/${runId}/report.json`)).json);
    for (const format of ['md', 'html', 'pdf'])
      expect({ format, status: (await holder('GET', `/v1/shared/report.${format}`)).status }).toEqual({ format, status: 200 });
    const sources = Object.values(report.json.sources as Record<string, { contentHash: string; title: string }>);
    expect(sources.length).toBeGreaterThan(0);
    const text = await holder('GET', `/v1/shared/sources/${sources[0]!.contentHash}`);
    expect({ status: text.status, title: text.json.title }).toEqual({ status: 200, title: sources[0]!.title });
    // A prefix is not enough through a link (it would tell the tenant's other snapshots apart).
    expectError(await holder('GET', `/v1/shared/sources/${sources[0]!.contentHash.slice(0, 12)}`), 400, 'validation_failed');

    // What the link cannot reach: a snapshot of the same tenant that this run did not read, the tenant's API, the
    // run's other routes and every write.
    const [other] = await sql<{ content_hash: string }>(
      gw.db.url,
      `INSERT INTO source_snapshots (id, tenant_id, url, title, content_hash, text, media_type)
       VALUES (gen_random_uuid(), $1, 'https://example.org/private', 'Private', repeat('ab', 32), 'not shared', 'text/plain') RETURNING content_hash`,
      [acme.id],
    );
    expect((await member('GET', `/v1/sources/${other!.content_hash}`)).status).toBe(200);
    expectError(await holder('GET', `/v1/shared/sources/${other!.content_hash}`), 404, 'not_found');
    for (const [method, url, body] of [
      ['GET', '/v1/me'],
      ['GET', '/v1/runs'],
      ['GET', `/v1/runs/${runId}`],
      ['GET', `/v1/runs/${runId}/report.json`],
      ['GET', `/v1/runs/${runId}/audit`],
      ['GET', `/v1/runs/${runId}/shares`],
      ['GET', `/v1/sources/${sources[0]!.contentHash}`],
      ['GET', '/v1/collections'],
      ['POST', '/v1/runs', { question: 'Through a share link?' }],
      ['POST', `/v1/runs/${runId}/shares`, {}],
      ['POST', `/v1/runs/${runId}/follow-ups`, { question: 'Through a share link?' }],
      ['POST', `/v1/runs/${runId}/shares/${share.id}/revoke`, {}],
    ] as [string, string, unknown?][]) {
      const res = await holder(method, url, body);
      expect({ method, url, status: res.status }).toEqual({ method, url, status: 401 });
    }
    expect((await holder('POST', '/mcp', {})).status).toBe(401);
    // An API key is no share token, and a token that is not one is a 401.
    expectError(await member('GET', '/v1/shared'), 401, 'unauthorized');
    expectError(await client(gw.url, `${share.token.slice(0, -1)}x`)('GET', '/v1/shared'), 401, 'unauthorized');
    expectError(await client(gw.url)('GET', '/v1/shared/report.json'), 401, 'unauthorized');

    // Revoked: at once, for every route of the link; only the tenant's members and admins may.
    expectError(await viewer('POST', `/v1/runs/${runId}/shares/${share.id}/revoke`, {}), 403, 'forbidden');
    expectError(await globex('POST', `/v1/runs/${runId}/shares/${share.id}/revoke`, {}), 404, 'not_found');
    const revoked = await member('POST', `/v1/runs/${runId}/shares/${share.id}/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(ShareView.parse(revoked.json)).toMatchObject({ state: 'revoked', revokedBy: expect.stringContaining('acme-robot') });
    const again = await member('POST', `/v1/runs/${runId}/shares/${share.id}/revoke`, {});
    expect(again.json.revokedAt).toBe(revoked.json.revokedAt);
    for (const url of ['/v1/shared', '/v1/shared/report.json', `/v1/shared/sources/${sources[0]!.contentHash}`]) {
      const res = await holder('GET', url);
      expect({ url, status: res.status, error: res.json.error, reason: res.json.details?.reason }).toEqual({
        url,
        status: 410,
        error: 'share_gone',
        reason: 'revoked',
      });
    }

    // Expired: the same 410, saying so; the list shows each link's state, never a token.
    const second = CreatedShareView.parse((await member('POST', `/v1/runs/${runId}/shares`, {})).json);
    expect((Date.parse(second.expiresAt) - Date.parse(second.createdAt)) / 3_600_000).toBeCloseTo(168, 3);
    expect((await client(gw.url, second.token)('GET', '/v1/shared')).status).toBe(200);
    await sql(
      gw.db.url,
      `UPDATE report_shares SET created_at = now() - interval '2 hours', expires_at = now() - interval '1 second' WHERE id = $1`,
      [second.id],
    );
    const expired = await client(gw.url, second.token)('GET', '/v1/shared/report.json');
    expect({ status: expired.status, reason: expired.json.details?.reason }).toEqual({ status: 410, reason: 'expired' });
    const third = CreatedShareView.parse((await member('POST', `/v1/runs/${runId}/shares`, { expiresInHours: 720 })).json);
    const listed = (await viewer('GET', `/v1/runs/${runId}/shares`)).json.items.map((s: unknown) => ShareView.parse(s));
    expect(Object.fromEntries(listed.map((s: ShareView) => [s.id, s.state]))).toEqual({
      [share.id]: 'revoked',
      [second.id]: 'expired',
      [third.id]: 'active',
    });
    expect(JSON.stringify(listed)).not.toContain(third.token);

    // Who shared and who revoked, in the run's verified audit log.
    const audit = (await member('GET', `/v1/runs/${runId}/audit`)).json;
    expect(audit.verification.ok).toBe(true);
    const kinds = audit.events.map((e: { kind: string }) => e.kind);
    expect(kinds.filter((k: string) => k === 'report_shared')).toHaveLength(3);
    expect(kinds.filter((k: string) => k === 'report_share_revoked')).toHaveLength(1);
    expect(JSON.stringify(audit.events)).not.toContain(secret);
  });

  it('only a completed run is shared or followed up', async () => {
    const gated = await member('POST', '/v1/runs', { question: QUESTION, options: { ...SMALL, gates: { plan: 'required' } } });
    await waitFor(
      'the plan gate',
      async () => (await member('GET', `/v1/runs/${gated.json.id}`)).json.awaitingGate === 'plan' || undefined,
    );
    expectError(await member('POST', `/v1/runs/${gated.json.id}/shares`, {}), 409, 'run_state_conflict');
    expectError(await member('POST', `/v1/runs/${gated.json.id}/follow-ups`, { question: 'And then?' }), 409, 'run_state_conflict');
    await member('POST', `/v1/runs/${gated.json.id}/cancel`, {});
  });

  it('a follow-up run starts from the first run’s sources: its corpus is their snapshots, and its evidence points into them', async () => {
    expectError(await viewer('POST', `/v1/runs/${runId}/follow-ups`, { question: 'Did the dam matter?' }), 403, 'forbidden');
    expectError(await globex('POST', `/v1/runs/${runId}/follow-ups`, { question: 'Did the dam matter?' }), 404, 'not_found');
    expectError(await member('POST', `/v1/runs/${runId}/follow-ups`, { question: '  ' }), 400, 'validation_failed');
    expectError(await member('POST', `/v1/runs/${runId}/follow-ups`, { question: 'x', options: {} }), 400, 'validation_failed');
    // followUp is set by the route only: a plain new run cannot claim to follow another.
    expectError(await member('POST', '/v1/runs', { question: 'x', options: { followUp: { of: runId } } }), 400, 'validation_failed');

    const res = await member('POST', `/v1/runs/${runId}/follow-ups`, { question: 'How much did irrigation withdrawals lower Lake Varen?' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/v1/runs/${res.json.id}`);
    const followUp = RunView.parse(res.json);
    expect(followUp.options).toMatchObject({
      collection: `sources of run ${runId}`,
      followUp: { of: runId },
      perspectives: 2,
      maxIterations: 1,
      searchProviders: ['corpus'],
    });
    await completed(member, followUp.id);

    const snapshotsOf = async (id: string) =>
      new Set(
        (
          await sql<{ snapshot_id: string }>(
            gw.db.url,
            'SELECT DISTINCT snapshot_id FROM evidence_fragments WHERE run_id = $1 UNION SELECT DISTINCT snapshot_id FROM source_records WHERE run_id = $1 AND snapshot_id IS NOT NULL',
            [id],
          )
        ).map((r) => r.snapshot_id),
      );
    const first = await snapshotsOf(runId);
    const second = await snapshotsOf(followUp.id);
    expect(second.size).toBeGreaterThan(0);
    expect([...second].filter((s) => !first.has(s))).toEqual([]);
    // The seeded collection holds exactly the first run's snapshots, by content hash.
    const seeded = await sql<{ n: string }>(
      gw.db.url,
      `SELECT count(*) AS n FROM documents d JOIN collections c ON c.id = d.collection_id
        WHERE c.tenant_id = $1 AND c.name = $2 AND d.content_hash IN (SELECT content_hash FROM source_snapshots WHERE id = ANY($3::uuid[]))`,
      [acme.id, `sources of run ${runId}`, [...first]],
    );
    expect(Number(seeded[0]!.n)).toBe(first.size);
    const report = (await member('GET', `/v1/runs/${followUp.id}/report.json`)).json;
    expect(report.question).toBe('How much did irrigation withdrawals lower Lake Varen?');
    expect(Object.keys(report.sources).length).toBeGreaterThan(0);

    // A second follow-up reuses the collection as it is.
    const again = await member('POST', `/v1/runs/${runId}/follow-ups`, { question: 'What did the trust report say?' });
    expect(again.status).toBe(201);
    const docs = await sql<{ n: string }>(
      gw.db.url,
      `SELECT count(*) AS n FROM documents d JOIN collections c ON c.id = d.collection_id WHERE c.tenant_id = $1 AND c.name = $2`,
      [acme.id, `sources of run ${runId}`],
    );
    expect(Number(docs[0]!.n)).toBe(first.size);
    await member('POST', `/v1/runs/${again.json.id}/cancel`, {});
  });
});
