import { flatePdf, sql } from '@dossier/testing';
import { whileInFlight } from './fixtures/while-in-flight';
import { client, startGateway, type Gateway } from './gateway-harness';

/** Issue 30, item 3: PDF and HTML are extracted in worker threads with caps; a PDF bomb is refused and nobody waits for it. */
describe('security round 2: hostile uploads', () => {
  let gw: Gateway;
  let attacker: { id: string; key: string };
  let bystander: { id: string; key: string };
  let api: ReturnType<typeof client>;
  let collection: string;

  beforeAll(async () => {
    gw = await startGateway();
    attacker = await gw.tenant('uploader');
    bystander = await gw.tenant('reader');
    api = client(gw.url, attacker.key);
    collection = (await api('POST', '/v1/collections', { name: 'uploads' })).json.id;
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
  });

  const documents = async (): Promise<number> =>
    Number((await sql<{ n: string }>(gw.db.url, 'SELECT count(*) AS n FROM documents WHERE tenant_id = $1', [attacker.id]))[0]!.n);

  it('a 64 KiB PDF whose content stream inflates to 64 MiB is a 400 too_large; health and other tenants are answered meanwhile', async () => {
    const bomb = flatePdf(64 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(128 * 1024);
    const { result, probes } = await whileInFlight(gw.url, bystander.key, () =>
      api('POST', `/v1/collections/${collection}/documents`, {
        filename: 'bomb.pdf',
        content: bomb.toString('base64'),
        encoding: 'base64',
      }),
    );
    expect(result.status).toBe(400);
    expect(result.json.details.failed).toEqual([
      expect.objectContaining({
        path: 'bomb.pdf',
        code: 'too_large',
        reason: expect.stringMatching(/inflate to more than 33554432 bytes/),
      }),
    ]);
    expect(probes.healthz.length).toBeGreaterThan(0);
    expect(new Set([...probes.healthz, ...probes.other])).toEqual(new Set([200]));
    expect(await documents()).toBe(0);
  });

  it('ordinary compressed PDFs and HTML pages still extract, through the same workers', async () => {
    const pdf = await api('POST', `/v1/collections/${collection}/documents`, {
      filename: 'fine.pdf',
      content: flatePdf(4 * 1024).toString('base64'),
      encoding: 'base64',
    });
    expect(pdf.status).toBe(201);
    const html = await api('POST', `/v1/collections/${collection}/documents`, {
      filename: 'page.html',
      content:
        '<html><head><title>A page</title></head><body><h1>Heading</h1><p>Some text of the page, long enough to read.</p></body></html>',
    });
    expect(html.status).toBe(201);
    const rows = await sql<{ path: string; text: string }>(
      gw.db.url,
      'SELECT path, text FROM documents WHERE tenant_id = $1 ORDER BY path',
      [attacker.id],
    );
    expect(rows.map((r) => r.path)).toEqual(['fine.pdf', 'page.html']);
    expect(rows[0]!.text).toMatch(/^Compressed line/);
    expect(rows[1]!.text).toMatch(/Some text of the page/);
  });
});
