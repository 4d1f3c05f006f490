import { cliRunner, sql } from '@dossier/testing';
import { startGateway, type Gateway } from './gateway-harness';

/**
 * A key's role is the one `dossier admin create-key --role` asked for, also for a principal that already exists
 * with another role (issue 30, high: a viewer key made for an existing member principal could start runs).
 */
describe('dossier admin create-key: the key has the role asked for', () => {
  let gw: Gateway;
  let cli: ReturnType<typeof cliRunner>;

  beforeAll(async () => {
    gw = await startGateway();
    cli = cliRunner(gw.db);
    expect((await cli(['admin', 'create-tenant', 'acme'])).code).toBe(0);
  }, 120_000);
  afterAll(() => gw?.close());

  const keyOf = (output: string) => /^(dsk_[0-9a-f]{12}_[A-Za-z0-9_-]{43})$/m.exec(output)![1]!;
  const call = async (key: string, method: string, route: string, body?: unknown) => {
    const res = await fetch(`${gw.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  };

  it('a viewer key for an existing member principal reads but cannot write; the command prints the role', async () => {
    const member = await cli(['admin', 'create-key', 'acme', '--name', 'robot']);
    expect(member.code).toBe(0);
    expect(member.output).toMatch(/for acme \(principal robot\), role member \(read and write\)/);
    const viewer = await cli(['admin', 'create-key', 'acme', '--name', 'robot', '--role', 'viewer']);
    expect(viewer.code).toBe(0);
    expect(viewer.output).toMatch(/for acme \(principal robot\), role viewer \(read only\)/);

    const viewerKey = keyOf(viewer.output);
    expect((await call(viewerKey, 'GET', '/v1/me')).json).toMatchObject({ principal: { name: 'robot', role: 'viewer' }, canWrite: false });
    const refused = await call(viewerKey, 'POST', '/v1/runs', { question: 'May a viewer start research?' });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: 'forbidden', details: { role: 'viewer' } });
    expect(refused.json.message).toMatch(/is a viewer key: it can read but not POST here/);
    expect((await sql(gw.db.url, 'SELECT 1 FROM research_runs')).length).toBe(0);

    // The member key of the same principal is still a member key: roles belong to keys, not principals.
    const memberKey = keyOf(member.output);
    expect((await call(memberKey, 'GET', '/v1/me')).json).toMatchObject({ principal: { role: 'member' }, canWrite: true });
    expect((await call(memberKey, 'POST', '/v1/runs', { question: 'May a member start research?' })).status).toBe(201);
  });

  it('an unknown role is refused before anything is written', async () => {
    const before = await sql(gw.db.url, 'SELECT 1 FROM api_keys');
    const bad = await cli(['admin', 'create-key', 'acme', '--name', 'robot', '--role', 'owner']);
    expect(bad.code).toBe(2);
    expect(bad.output).toMatch(/--role must be admin, member or viewer, got "owner"/);
    expect((await sql(gw.db.url, 'SELECT 1 FROM api_keys')).length).toBe(before.length);
  });
});
