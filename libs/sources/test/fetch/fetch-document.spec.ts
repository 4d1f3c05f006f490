import {
  decodeBody,
  documentFromPage,
  ExtractionError,
  fetchDocument,
  metaCharset,
  readHtmlMetadata,
  SafeFetcher,
  type FetchedPage,
} from '../../src';
import { minimalPdf } from '../fixtures/minimal-pdf';
import { startServer, type TestServer } from './servers';

const latin = (s: string) => Buffer.from(s, 'latin1');
const page = (html: string | Buffer, headers: Record<string, string>) => ({
  body: typeof html === 'string' ? Buffer.from(html) : html,
  headers,
});

// "Привет, мир" in KOI8-R and "日本語のページ" in Shift_JIS, byte by byte (Node has no encoder for either).
const KOI8R_PRIVET_MIR = Buffer.from([0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4, 0x2c, 0x20, 0xcd, 0xc9, 0xd2]);
const SJIS_NIHONGO_NO_PEEJI = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x83, 0x79, 0x81, 0x5b, 0x83, 0x57]);

const ARTICLE = `<!DOCTYPE html><html><head><title>Lake report | Example News</title>
<meta property="article:published_time" content="2024-05-06T07:08:09+02:00">
</head><body><nav><a href="/">Home</a> NAVLINK</nav><article><h1>The lake fell</h1>
<p class="byline">By Jane Doe</p>
<p>The lake fell by 4.2 metres between June and October 2023, the lowest level in forty years of records kept by the authority.</p>
<p>The dam operator says the drawdown followed its published schedule; the fishing association disputes that account strongly.</p>
</article><footer>FOOTERTEXT</footer></body></html>`;

const PAGES: Record<string, { body: Buffer; headers: Record<string, string> }> = {
  '/article': page(ARTICLE, { 'content-type': 'text/html; charset=utf-8' }),
  '/cp1252': page(latin('<html><head><title>x</title></head><body><p>Un caf\xe9 cr\xe8me \x96 \x80 5</p></body></html>'), {
    'content-type': 'text/html; charset=windows-1252',
  }),
  '/latin1-meta': page(
    latin('<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head><body><p>caf\xe9</p></body></html>'),
    { 'content-type': 'text/html' },
  ),
  '/koi8r-meta': page(
    Buffer.concat([
      Buffer.from('<html><head><meta charset="koi8-r"></head><body><p>'),
      KOI8R_PRIVET_MIR,
      Buffer.from('</p></body></html>'),
    ]),
    { 'content-type': 'text/html' },
  ),
  '/sjis-header': page(Buffer.concat([Buffer.from('<html><body><p>'), SJIS_NIHONGO_NO_PEEJI, Buffer.from('</p></body></html>')]), {
    'content-type': 'text/html; charset=Shift_JIS',
  }),
  '/header-beats-meta': page(
    Buffer.concat([
      Buffer.from('<html><head><meta charset="windows-1252"></head><body><p>'),
      KOI8R_PRIVET_MIR,
      Buffer.from('</p></body></html>'),
    ]),
    { 'content-type': 'text/html; charset=koi8-r' },
  ),
  // ISO-8859-2 "Łódź": read as windows-1252 (the fallback) it would be "£ód¼", so this proves the header is used.
  '/latin2-header': page(latin('<html><body><p>\xa3\xf3d\xbc</p></body></html>'), { 'content-type': 'text/html; charset=ISO-8859-2' }),
  '/notes.md': page('# Field notes\n\nInflow was 12 m³/s.\n', { 'content-type': 'text/markdown; charset=utf-8' }),
  '/report.pdf': page(minimalPdf([['Water balance 2024', 'Evaporation was 310 mm.']], { title: 'Water balance' }), {
    'content-type': 'application/pdf',
  }),
};

describe('fetchDocument', () => {
  let server: TestServer;
  let fetcher: SafeFetcher;

  beforeAll(async () => {
    server = await startServer((req, res) => {
      const p = PAGES[req.url ?? ''];
      if (!p) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, p.headers).end(p.body);
    });
    fetcher = new SafeFetcher({ testAllowlist: [`127.0.0.1:${server.port}`] });
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = (path: string) => fetchDocument(fetcher, `${server.origin}${path}`);

  it('HTML → main text with Readability, title, byline and published date', async () => {
    const doc = await get('/article');
    expect(doc).toMatchObject({
      url: `${server.origin}/article`,
      title: 'The lake fell',
      mediaType: 'text/html',
      byline: 'Jane Doe',
      truncated: false,
    });
    expect(doc.publishedAt).toBe('2024-05-06T05:08:09.000Z');
    expect(doc.text).toContain('The lake fell by 4.2 metres');
    expect(doc.text).not.toContain('NAVLINK');
    expect(doc.text).not.toContain('FOOTERTEXT');
  });

  it('decodes a windows-1252 page (charset in the header)', async () => {
    expect((await get('/cp1252')).text).toBe('Un café crème – € 5');
  });

  it('decodes iso-8859-1 declared by <meta http-equiv>, and KOI8-R declared by <meta charset>', async () => {
    expect((await get('/latin1-meta')).text).toBe('café');
    expect((await get('/koi8r-meta')).text).toBe('Привет, мир');
  });

  it('decodes Shift_JIS (charset in the header)', async () => {
    expect((await get('/sjis-header')).text).toBe('日本語のページ');
  });

  it('the Content-Type charset wins over a <meta> that contradicts it', async () => {
    expect((await get('/header-beats-meta')).text).toBe('Привет, мир');
  });

  it('decodes ISO-8859-2 from the header (not the windows-1252 fallback)', async () => {
    expect((await get('/latin2-header')).text).toBe('Łódź');
  });

  it('markdown and PDF go through their extractors', async () => {
    expect(await get('/notes.md')).toMatchObject({
      title: 'Field notes',
      mediaType: 'text/markdown',
      text: '# Field notes\n\nInflow was 12 m³/s.',
      byline: null,
      publishedAt: null,
    });
    const pdf = await get('/report.pdf');
    expect(pdf).toMatchObject({ title: 'Water balance', mediaType: 'application/pdf' });
    expect(pdf.text).toContain('Evaporation was 310 mm.');
  });
});

describe('documentFromPage / decodeBody', () => {
  const fetched = (bytes: Uint8Array, contentType: string, extra: Partial<FetchedPage> = {}): FetchedPage => ({
    requestedUrl: 'https://example.com/a',
    url: 'https://example.com/a',
    status: 200,
    contentType,
    charset: null,
    bytes,
    truncated: false,
    fetchedAt: new Date(),
    ...extra,
  });

  it('a UTF-8 body cut inside a character loses that character, not the encoding', async () => {
    const full = Buffer.from('<p>plain ascii then é</p>');
    const cut = full.subarray(0, full.indexOf(Buffer.from('é')) + 1); // first byte of the two-byte é
    const doc = await documentFromPage(fetched(cut, 'text/html', { truncated: true }));
    expect(doc.text).toBe('plain ascii then');
    expect(doc.truncated).toBe(true);
  });

  it('legacy bytes with no declaration fall back to windows-1252 (the lib rule)', () => {
    expect(decodeBody(latin('caf\xe9 cr\xe8me'), { charset: null, html: false, truncated: false })).toBe('café crème');
  });

  it('an unknown charset label is ignored', () => {
    expect(decodeBody(Buffer.from('café'), { charset: 'x-no-such-charset', html: false, truncated: false })).toBe('café');
    expect(metaCharset(Buffer.from('<meta charset="KOI8-R">'))).toBe('koi8-r');
    expect(metaCharset(Buffer.from('<p>no meta</p>'))).toBeNull();
  });

  it('the title falls back to the URL; a type without an extractor is refused', async () => {
    expect((await documentFromPage(fetched(Buffer.from('<p>no title here</p>'), 'text/html'))).title).toBe('https://example.com/a');
    await expect(documentFromPage(fetched(Buffer.from('{}'), 'application/json'))).rejects.toBeInstanceOf(ExtractionError);
  });

  it('metadata: JSON-LD and meta tags; absent → null', () => {
    const jsonLd = readHtmlMetadata(
      '<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"H","author":{"@type":"Person","name":"Ann Smith"},"datePublished":"2023-11-02"}</script></head><body><p>text</p></body></html>',
    );
    expect(jsonLd).toEqual({ byline: 'Ann Smith', publishedAt: '2023-11-02' });
    expect(
      readHtmlMetadata(
        '<html><head><meta name="author" content="Bob"><meta name="date" content="not a date"></head><body><p>x</p></body></html>',
      ),
    ).toEqual({
      byline: 'Bob',
      publishedAt: null,
    });
    expect(readHtmlMetadata('<p>nothing</p>')).toEqual({ byline: null, publishedAt: null });
  });
});
