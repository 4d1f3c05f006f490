import { ApiKeyRepository } from '@dossier/db';
import { sql } from '@dossier/testing';
import { startGateway, type Gateway } from './gateway-harness';

/** mulberry32: a small seeded PRNG, so a failure names a seed that reproduces it. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261129);
const COUNT = 2000;

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/**
 * Random and malformed requests across every endpoint. Each one carries at least one defect (no or bad
 * key, another tenant's or a missing id, a malformed id, an invalid or oversized body, an unknown field,
 * a wrong content type, a wrong method), so none may succeed: every answer must be a 4xx, and the
 * database must hold nothing new afterwards.
 */
function generator(
  rand: () => number,
  keys: { good: string; revoked: string },
  foreign: { run: string; collection: string; approval: string },
) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const int = (n: number) => Math.floor(rand() * n);
  const str = (n: number) => Array.from({ length: n }, () => String.fromCharCode(32 + int(95))).join('');
  const unicode = (n: number) =>
    Array.from({ length: n }, () => String.fromCodePoint(pick([0x0, 0x1f, 0x7f, 0x202e, 0xfeff, 0x1f600, 0xd7ff, 0x41 + int(26)]))).join(
      '',
    );
  const missing = () => `${[8, 4, 4, 4, 12].map((n) => Array.from({ length: n }, () => int(16).toString(16)).join('')).join('-')}`;
  const badIds = [
    'not-a-uuid',
    '%00',
    '..%2f..%2fetc%2fpasswd',
    "' OR 1=1 --",
    '%ZZ',
    'x'.repeat(300),
    '00000000-0000-0000-0000-00000000000g',
    '{id}',
    '%E2%80%AE',
    '-1',
    '1e309',
  ];
  const ids = () => pick(['missing', 'foreign', 'bad', 'bad'] as const);
  const runId = (kind: ReturnType<typeof ids>) => (kind === 'missing' ? missing() : kind === 'foreign' ? foreign.run : pick(badIds));
  const anyJson = (depth = 0): unknown => {
    switch (int(depth > 3 ? 5 : 8)) {
      case 0:
        return null;
      case 1:
        return rand() < 0.5;
      case 2:
        return pick([0, -1, 1e308, -0.5, 2 ** 53 + 1, 42]);
      case 3:
        return pick([str(int(20)), unicode(int(10)), '', 'x'.repeat(5000)]);
      case 4:
        return pick(['approve', 'reject', 'corpus', 'offline', 'required']);
      case 5:
        return Array.from({ length: int(4) }, () => anyJson(depth + 1));
      default:
        return Object.fromEntries(
          Array.from({ length: int(4) }, () => [
            pick([
              'question',
              'options',
              'decision',
              'feedback',
              'name',
              'type',
              'filename',
              'content',
              str(6),
              '__proto__',
              'constructor',
            ]),
            anyJson(depth + 1),
          ]),
        );
    }
  };
  // Bodies that are close to valid, each with one defect.
  const nearRunBodies = (): unknown =>
    pick([
      { question: 'Valid?', extra: anyJson() },
      { question: anyJson(3) === null ? null : 12 },
      { question: '' },
      { question: '   ' },
      { question: 'x'.repeat(4001) },
      { question: 'Valid?', options: { engine: pick(['gpt', '', 'OFFLINE', 7]) } },
      { question: 'Valid?', options: { perspectives: pick([0, 9, 2.5, '3', -1]) } },
      { question: 'Valid?', options: { maxIterations: pick([0, 21, null]) } },
      { question: 'Valid?', options: { searchProviders: pick([[], [''], 'corpus', Array(9).fill('corpus')]) } },
      { question: 'Valid?', options: { gates: { plan: 'maybe' } } },
      { question: 'Valid?', options: { gates: { review: 'required' } } },
      { question: 'Valid?', options: { budgets: { tokens: pick([-5, 0, 1.5, 'many']) } } },
      { question: 'Valid?', options: { budgets: { dollars: 3 } } },
      { question: 'Valid?', options: { minInformationGain: 2 } },
      { question: 'Valid?', options: pick([null, 7, 'x', [], true, { [`unknown_${str(4)}`]: anyJson(3) }]) },
      { options: {} },
      [{ question: 'Valid?' }],
    ]);
  const nearOtherBodies = (): unknown =>
    pick([
      { decision: 'reject' },
      { decision: 'reject', feedback: '' },
      { decision: 'approve', feedback: 'x' },
      { decision: 'maybe' },
      { type: 'add_question', question: 'ab' },
      { type: 'exclude_domain', domain: 'not a domain' },
      { type: 'exclude_source', sourceId: 'nope' },
      { type: 'teleport' },
      { name: '' },
      { name: 'a/b' },
      { name: 'x'.repeat(121) },
      { name: 'ok', colour: 'red' },
      { filename: 'evil.exe', content: 'MZ' },
      { filename: '../../etc/passwd.md', content: 'x' },
      { filename: 'a.md', content: '' },
      { filename: 'a.md', content: 'x', encoding: 'rot13' },
      { reason: 5 },
      anyJson(),
    ]);

  return (): FuzzRequest => {
    const auth = pick(['good', 'good', 'good', 'good', 'none', 'revoked', 'garbage', 'wrong-scheme'] as const);
    const headers: Record<string, string> = {};
    if (auth === 'good') headers['authorization'] = `Bearer ${keys.good}`;
    if (auth === 'revoked') headers['authorization'] = `Bearer ${keys.revoked}`;
    if (auth === 'garbage')
      headers['authorization'] =
        `Bearer ${pick([str(int(80)), 'dsk_', `dsk_${'0'.repeat(12)}_${'A'.repeat(43)}`, keys.good.slice(0, -1) + 'x'])}`;
    if (auth === 'wrong-scheme') headers['authorization'] = `Basic ${Buffer.from(`u:${keys.good}`).toString('base64')}`;
    const defective = auth !== 'good';
    const kind = ids();
    const run = runId(kind);
    const endpoints: (() => FuzzRequest)[] = [
      // POST /v1/runs: with a good key the body must be broken (or the id header); otherwise anything goes.
      () => {
        const h = { ...headers };
        if (rand() < 0.2) h['idempotency-key'] = pick(['', ' ', 'has space', 'x'.repeat(201), 'ünïcode']);
        const broken = defective || h['idempotency-key'] !== undefined;
        const body = broken && rand() < 0.3 ? { question: 'A fine question?' } : nearRunBodies();
        return { method: 'POST', path: '/v1/runs', headers: { ...h, 'content-type': 'application/json' }, body: JSON.stringify(body) };
      },
      // Raw, unparsable or oversized bodies and wrong content types.
      () => ({
        method: 'POST',
        path: pick([
          '/v1/runs',
          '/v1/collections',
          `/v1/runs/${run}/cancel`,
          `/v1/approvals/${run}`,
          `/v1/collections/${kind === 'foreign' ? foreign.collection : run}/documents`,
        ]),
        headers: {
          ...headers,
          'content-type': pick([
            'application/json',
            'text/plain',
            'application/xml',
            'multipart/form-data; boundary=x',
            'application/x-www-form-urlencoded',
            'application/json; charset=utf-16',
          ]),
        },
        body: pick([
          '{"question": ',
          '{"question": "a", "question": }',
          'null',
          '[]',
          '"just a string"',
          '\u0000\u0001\u0002',
          Buffer.from(Array.from({ length: 64 }, () => int(256))).toString('latin1'),
          'x'.repeat(300 * 1024),
          `{"question":"${'y'.repeat(300 * 1024)}"}`,
          '{"__proto__": {"admin": true}}',
          '--x\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\n\r\n# hi\r\n--x--\r\n',
          '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nno filename\r\n--x',
        ]),
      }),
      () => ({
        method: 'GET',
        path: `/v1/runs?${pick(['status=sleeping', 'limit=0', 'limit=101', 'limit=abc', 'cursor=%%%', 'cursor=' + Buffer.from('2020|x').toString('base64url'), 'sort=asc', 'status=running&status=failed', 'limit=-1'])}`,
        headers,
      }),
      () => ({
        method: 'GET',
        path: `/v1/runs/${run}${pick(['', '/events', '/approvals', '/report', '/report.md', '/report.pdf', '/report.', '/claims', '/sources', '/audit', '/interventions'])}`,
        headers: { ...headers, ...(rand() < 0.3 ? { 'last-event-id': pick(['-1', 'abc', '1e99', '99999999999']) } : {}) },
      }),
      () => ({
        method: 'POST',
        path: `/v1/runs/${run}/${pick(['cancel', 'resume', 'interventions'])}`,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(nearOtherBodies()),
      }),
      () => ({
        method: 'POST',
        path: `/v1/approvals/${kind === 'foreign' ? foreign.approval : run}`,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(pick([nearOtherBodies(), { decision: 'approve' }])),
      }),
      () => ({
        method: 'POST',
        path: '/v1/collections',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(defective && rand() < 0.3 ? { name: 'fuzz' } : nearOtherBodies()),
      }),
      () => ({
        method: 'POST',
        path: `/v1/collections/${kind === 'foreign' ? foreign.collection : kind === 'missing' ? missing() : pick(badIds)}/documents`,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(pick([{ filename: 'a.md', content: '# Fine\n\nFine text here.' }, nearOtherBodies()])),
      }),
      () => ({
        method: pick(['PUT', 'DELETE', 'PATCH']),
        path: pick(['/v1/runs', `/v1/runs/${run}`, '/v1/collections', `/v1/approvals/${run}`]),
        headers,
      }),
      () => ({
        method: 'GET',
        path: pick([
          '/v1',
          '/v1/',
          '/v2/runs',
          '/v1/runs/',
          '/v1/runs//events',
          '/admin/queues',
          '/admin/queues/api/queues',
          `/v1/${unicode(3)}`,
          '/%',
        ]),
        headers,
      }),
    ];
    return pick(endpoints)();
  };
}

describe('gateway fuzz: 2,000 random and malformed requests', () => {
  let gw: Gateway;

  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw?.close();
  });

  async function tableCounts(): Promise<Record<string, number>> {
    const tables = await sql<{ table_name: string }>(
      gw.db.url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'",
    );
    const counts: Record<string, number> = {};
    for (const { table_name } of tables)
      counts[table_name] = Number((await sql<{ n: string }>(gw.db.url, `SELECT count(*) AS n FROM "${table_name}"`))[0]!.n);
    return counts;
  }

  it(`only 4xx answers, never a 5xx, and nothing stored (seed ${SEED})`, async () => {
    const a = await gw.tenant('fuzz-a');
    const b = await gw.tenant('fuzz-b');
    const keys = gw.app.get(ApiKeyRepository);
    const revoked = await keys.create(a.id, 'revoked-robot');
    await keys.revoke(revoked.row.prefix);
    const bKey = { authorization: `Bearer ${b.key}`, 'content-type': 'application/json' };
    const bRun = (await (
      await fetch(`${gw.url}/v1/runs`, { method: 'POST', headers: bKey, body: JSON.stringify({ question: 'B?' }) })
    ).json()) as { id: string };
    const bColl = (await (
      await fetch(`${gw.url}/v1/collections`, { method: 'POST', headers: bKey, body: JSON.stringify({ name: 'b' }) })
    ).json()) as { id: string };
    const [bApproval] = await sql<{ id: string }>(
      gw.db.url,
      `INSERT INTO approval_decisions (id, tenant_id, run_id, gate, revision) VALUES (gen_random_uuid(), '${b.id}', '${bRun.id}', 'plan', 0) RETURNING id`,
    );
    const before = await tableCounts();

    const next = generator(
      prng(SEED),
      { good: a.key, revoked: revoked.key },
      { run: bRun.id, collection: bColl.id, approval: bApproval!.id },
    );
    const requests = Array.from({ length: COUNT }, next);
    const statuses = new Map<number, number>();
    const bad: string[] = [];
    let i = 0;
    // A few at a time, as clients would.
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (i < requests.length) {
          const r = requests[i++]!;
          const res = await fetch(`${gw.url}${r.path}`, {
            method: r.method,
            headers: r.headers,
            ...(r.body !== undefined ? { body: r.body } : {}),
          });
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          let shaped = false;
          try {
            const json = JSON.parse(text) as Record<string, unknown>;
            shaped = typeof json['error'] === 'string' && typeof json['message'] === 'string' && 'details' in json;
          } catch {
            // not JSON: not the error shape
          }
          if (res.status < 400 || res.status >= 500 || !shaped)
            bad.push(`${res.status} ${r.method} ${r.path.slice(0, 120)} ${String(r.body ?? '').slice(0, 120)} → ${text.slice(0, 200)}`);
        }
      }),
    );
    expect(bad).toEqual([]);
    expect([...statuses.values()].reduce((x, y) => x + y, 0)).toBe(COUNT);
    // The defects were of every kind.
    for (const status of [400, 401, 404, 413, 415]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
    expect(await tableCounts()).toEqual(before);
    const [approval] = await sql<{ status: string }>(gw.db.url, `SELECT status FROM approval_decisions WHERE id = '${bApproval!.id}'`);
    expect(approval!.status).toBe('open');
  });
});
