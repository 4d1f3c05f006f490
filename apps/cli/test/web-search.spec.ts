import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReportJson } from '@dossier/contracts';
import { createTestDatabase, sql, startFakeWeb, type FakeWeb, type TestDatabase } from '@dossier/testing';
import { cliRunner, EXAMPLES } from './cli-harness';

/** Pages of a small "web" about the same lake, served from 127.0.0.1 (reachable only through the test allowlist). */
const PAGES: Record<string, { title: string; body: string }> = {
  '/news/drawdown-figures': {
    title: 'Regional paper: how far did Lake Varen fall?',
    body: 'The water level of Lake Varen fell by 4.2 metres between 2015 and 2024, according to the water authority. Irrigation withdrawals did not cause the decline, the authority says.',
  },
  '/science/varen-study': {
    title: 'University hydrology group publishes Lake Varen study',
    body: 'The water level of Lake Varen fell by 6.1 metres between 2015 and 2024, the hydrologists report. Irrigation withdrawals caused the decline of Lake Varen, according to the study.',
  },
  '/blog/lake-notes': {
    title: 'Notes from the jetty',
    body: 'The decline of the water level of Lake Varen is visible from every jetty on the north shore, where boats now sit on dry mud.',
  },
};

function html(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><nav>Home | About</nav><article><h1>${title}</h1><p>${body}</p><p>${body.split('. ')[0]}.</p></article><footer>© Example</footer></body></html>`;
}

describe('dossier research --search tavily,corpus: a mixed web and private-corpus run against local test servers', () => {
  let db: TestDatabase;
  let cli: ReturnType<typeof cliRunner>;
  let web: FakeWeb;
  const pageHits = () => web.pages.requests.length;

  beforeAll(async () => {
    db = await createTestDatabase();
    cli = cliRunner(db);
    web = await startFakeWeb(PAGES, { html, urlSuffix: '?utm_source=tavily' });
  });
  afterAll(async () => {
    await web?.close();
    await db?.drop();
  });

  const webEnv = (): Record<string, string> => ({ NODE_ENV: 'test', ...web.env() });

  it('cites web and corpus sources, each labelled by origin; a second run over the same URLs fetches nothing', async () => {
    const out1 = mkdtempSync(path.join(tmpdir(), 'dossier-web1-'));
    const question = "How much did Lake Varen's water level fall, and did irrigation cause it?";
    const first = await cli(
      [
        'research',
        question,
        '--search',
        'tavily,corpus',
        '--corpus',
        path.join(EXAMPLES, 'corpus'),
        '--collection',
        'examples',
        '--max-iterations',
        '1',
        '--out',
        out1,
      ],
      webEnv(),
    );
    expect(first.output).toMatch(/Report written to/);
    expect(first.code).toBe(0);
    const searches = web.tavily.requests;
    expect(searches.length).toBeGreaterThan(0);
    expect(searches.map((r) => r.headers.authorization)).toEqual(searches.map(() => 'Bearer tvly-test-key'));
    const report = ReportJson.parse(JSON.parse(readFileSync(path.join(out1, 'report.json'), 'utf8')));
    const origins = new Set(Object.values(report.sources).map((s) => s.origin));
    expect(origins).toEqual(new Set(['web', 'corpus']));
    // Canonical URLs: the tracking parameter is gone from the cited web sources.
    const webSources = Object.values(report.sources).filter((s) => s.origin === 'web');
    expect(webSources.every((s) => !s.url.includes('utm_'))).toBe(true);
    const fetchedOnce = pageHits();
    expect(fetchedOnce).toBeGreaterThan(0);

    const out2 = mkdtempSync(path.join(tmpdir(), 'dossier-web2-'));
    const second = await cli(
      ['research', question, '--search', 'tavily,corpus', '--collection', 'examples', '--max-iterations', '1', '--out', out2],
      webEnv(),
    );
    expect(second.code).toBe(0);
    expect(pageHits()).toBe(fetchedOnce);
  });

  it('another tenant without the test allowlist: no cached page of the first tenant is reused, loopback pages are refused, the run completes from its corpus', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'dossier-web3-'));
    const before = pageHits();
    const env = { ...webEnv(), DOSSIER_FETCH_TEST_ALLOWLIST: '', DOSSIER_TENANT: 'another-team' };
    const r = await cli(
      [
        'research',
        'Who disputes the fish population recovery at Lake Varen?',
        '--search',
        'tavily,corpus',
        '--corpus',
        path.join(EXAMPLES, 'corpus'),
        '--collection',
        'examples',
        '--max-iterations',
        '1',
        '--out',
        out,
      ],
      env,
    );
    expect(r.code).toBe(0);
    expect(pageHits()).toBe(before);
    const report = ReportJson.parse(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    expect(Object.values(report.sources).every((s) => s.origin === 'corpus')).toBe(true);
  });

  it('a tenant that allows only its corpus: a run asking for tavily fails, naming the provider and the tenant rule', async () => {
    const env = { ...webEnv(), DOSSIER_TENANT: 'corpus-only-team' };
    expect((await cli(['runs'], env)).code).toBe(0);
    await sql(db.url, `UPDATE tenants SET policy = '{"searchProviders":["corpus"]}' WHERE name = 'corpus-only-team'`);
    const r = await cli(
      [
        'research',
        'Anything about Lake Varen?',
        '--search',
        'tavily,corpus',
        '--corpus',
        path.join(EXAMPLES, 'corpus'),
        '--collection',
        'examples',
        '--max-iterations',
        '1',
      ],
      env,
    );
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/Search provider\(s\) tavily not allowed for this tenant \(allowed: corpus\)/);
  });
});
