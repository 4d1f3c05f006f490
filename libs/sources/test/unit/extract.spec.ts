import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeText, extractBytes, ExtractionError, normalizeText, type ExtractionFailureCode } from '../../src';
import { articlePage } from '../fixtures/html-pages';
import { encryptedPdf, minimalPdf } from '../fixtures/minimal-pdf';

async function failure(bytes: Uint8Array, fileName: string): Promise<ExtractionFailureCode> {
  try {
    await extractBytes(bytes, fileName);
  } catch (err) {
    if (err instanceof ExtractionError) return err.reason;
    throw err;
  }
  throw new Error(`${fileName} was extracted, expected a failure`);
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');

describe('markdown and plain text', () => {
  it('stores markdown as readable text (no emphasis or code marks), CRLF turned into LF, and takes the first heading as title', async () => {
    const md =
      '\uFEFFIntro line\r\n\r\n# The *Tidal* Report #\r\n\r\nBody with `code` and trailing spaces   \r\nnext line\r\n\r\n\r\n\r\nlast\r\n';
    const result = await extractBytes(utf8(md), 'notes/report.md');
    expect(result).toEqual({
      title: 'The Tidal Report',
      text: 'Intro line\n\n# The Tidal Report #\n\nBody with code and trailing spaces\nnext line\n\nlast',
      mediaType: 'text/markdown',
    });
  });

  it('takes a front-matter title, a setext heading, or the first line, in that order', async () => {
    expect((await extractBytes(utf8('---\ntitle: "Front matter"\n---\n# Heading\ntext'), 'a.md')).title).toBe('Front matter');
    expect((await extractBytes(utf8('---\ndate: 2024\n---\nSetext title\n============\n\nbody'), 'b.markdown')).title).toBe('Setext title');
    expect((await extractBytes(utf8('```\n# not a heading\n```\nplain **first** line'), 'c.md')).title).toBe('plain first line');
    expect((await extractBytes(utf8('just a [linked](http://x) line\nmore'), 'd.md')).title).toBe('just a linked line');
  });

  it('uses the first non-blank line of a .txt as its title', async () => {
    const result = await extractBytes(utf8('\n\n  Lake Varen water levels  \nSecond line'), 'levels.TXT');
    expect(result).toEqual({ title: 'Lake Varen water levels', text: '  Lake Varen water levels\nSecond line', mediaType: 'text/plain' });
  });

  it('decodes legacy 8-bit text as windows-1252 instead of calling it binary', async () => {
    const latin1 = Buffer.from('Caf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve r\xe9sum\xe9 \x80 5', 'latin1');
    expect((await extractBytes(latin1, 'menu.txt')).text).toBe('Café crème brûlée, naïve résumé € 5');
  });

  it('is a pure function of the bytes', async () => {
    const bytes = utf8('Ünïcödé e\u0301 composed\r\nline two\ttab\f page');
    const first = await extractBytes(bytes, 'x.txt');
    const second = await extractBytes(Buffer.from(bytes), 'x.txt');
    expect(second).toEqual(first);
    expect(first.text).toBe('Ünïcödé é composed\nline two\ttab\n page');
  });
});

describe('html', () => {
  const page = articlePage('Tidal energy &amp; the moon', [
    'Tidal power converts the energy of tides into electricity. It is predictable &mdash; unlike wind &lt;or&gt; solar power, which come and go.',
    'The first large tidal plant opened at La Rance in France in 1966, with a capacity of 240 megawatts, and it still runs today.',
    'Modern designs use underwater turbines <em>similar</em> to wind turbines, placed in strong tidal streams between islands.',
  ]);

  it('keeps the article, drops navigation, sidebar, footer, scripts and styles, decodes entities', async () => {
    const result = await extractBytes(utf8(page), 'tidal.html');
    expect(result.title).toBe('Tidal energy & the moon');
    expect(result.mediaType).toBe('text/html');
    expect(result.text.split('\n\n')).toEqual([
      'Tidal power converts the energy of tides into electricity. It is predictable — unlike wind <or> solar power, which come and go.',
      'The first large tidal plant opened at La Rance in France in 1966, with a capacity of 240 megawatts, and it still runs today.',
      'Modern designs use underwater turbines similar to wind turbines, placed in strong tidal streams between islands.',
    ]);
    for (const boilerplate of ['NAVSHOP', 'SIDEBARLINK', 'FOOTERTEXT', 'SCRIPTCODE', 'color: red', 'About us']) {
      expect(result.text).not.toContain(boilerplate);
    }
  });

  it('gives the same text for the same bytes', async () => {
    const a = await extractBytes(utf8(page), 'tidal.htm');
    const b = await extractBytes(utf8(page), 'tidal.htm');
    expect(b).toEqual(a);
  });

  it('falls back to the body text when Readability finds no article, with lines and cells kept apart', async () => {
    const fragment =
      '<div>Short&nbsp;note &amp; more</div><table><tr><td>a1</td><td>b1</td></tr><tr><td>a2</td><td>b2</td></tr></table>line one<br>line two<pre>  keep   this\n  spacing</pre><script>evil()</script>';
    const result = await extractBytes(utf8(fragment), 'fragment.html');
    expect(result.title).toBe('fragment.html');
    expect(result.text).toBe('Short note & more\n\na1 b1\n\na2 b2\n\nline one\nline two\n\n  keep   this\n  spacing');
  });

  it('opens each list item with a bullet, its text in a <p> or not, so a lead-in can be joined with its items (decision 0132)', async () => {
    const fragment =
      '<div><p>The command takes two forms:</p><ul><li><p>a <em>soft</em> reset, which keeps the index</p></li><li>a hard reset, which discards it</li><li><pre>git reset --hard</pre></li></ul></div>';
    const { text } = await extractBytes(utf8(fragment), 'list.html');
    expect(text).toBe(
      'The command takes two forms:\n\n\u2022 a soft reset, which keeps the index\n\n\u2022 a hard reset, which discards it\n\ngit reset --hard',
    );
  });

  it('keeps every section of a manual page made of sibling sections, where Readability keeps only one', async () => {
    // Git's asciidoc manual pages (git-doc): one <div class="sect1"> per section. Readability took the description as
    // "the article" and dropped the options and examples (this page kept 14% of its text).
    const page = readFileSync(join(__dirname, '../fixtures/git-revert.html'));
    const { text } = await extractBytes(page, 'git-revert.html');
    for (const kept of [
      'revert the changes that the related patches introduce',
      'Usually you cannot revert a merge',
      'fourth last commit',
    ]) {
      expect(text).toContain(kept);
    }
    expect(text).not.toMatch(/Last updated/);
  });

  it('prefers the headline (<h1>) to a <title> that carries the site name', async () => {
    const html = articlePage('ignored', ['A paragraph long enough to be the article body of this small test page, about lakes and levels.'])
      .replace('<title>ignored</title>', '<title>Lake study: levels fell – Kessmark Courier</title>')
      .replace('<h1>ignored</h1>', '<h1>Lake study: levels fell</h1>');
    expect((await extractBytes(utf8(html), 'news.html')).title).toBe('Lake study: levels fell');
  });

  it('honours a declared legacy charset', async () => {
    const bytes = Buffer.from(
      '<html><head><meta charset="windows-1252"><title>Caf\xe9</title></head><body><p>Cr\xe8me</p></body></html>',
      'latin1',
    );
    expect(await extractBytes(bytes, 'cafe.html')).toMatchObject({ title: 'Café', text: 'Crème' });
  });

  it('a page with no text is empty', async () => {
    expect(
      await failure(utf8('<html><head><title>t</title></head><body><script>x()</script><img src="a.png"></body></html>'), 'blank.html'),
    ).toBe('empty');
  });
});

describe('pdf', () => {
  it('extracts each page in order, separated by a blank line, with the Title metadata as title', async () => {
    const pdf = minimalPdf([['Hello PDF world', 'second line of page one'], ['Page two \\(with parentheses\\)']], {
      title: 'Reservoir levels',
    });
    const result = await extractBytes(pdf, 'levels.pdf');
    expect(result).toEqual({
      title: 'Reservoir levels',
      text: 'Hello PDF world\nsecond line of page one\n\nPage two (with parentheses)',
      mediaType: 'application/pdf',
    });
    expect(await extractBytes(Buffer.from(pdf), 'levels.pdf')).toEqual(result);
  });

  it('reads a non-ASCII Title as written: the corpus maker writes it as UTF-16BE with its byte-order mark (issue 25)', async () => {
    // The corpus tool is a CommonJS script outside every project: loaded by its path, as a file rather than a module
    // import (Nx's boundary rule refuses a relative import that leaves the project).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const { makePdf } = require(join(__dirname, '../../../../tools/corpus/make-pdf.cjs')) as { makePdf: (source: string) => Buffer };
    const pdf = makePdf('Lake Varen Water Balance 2015–2024: Technical Report\n\nThe annual mean level fell by 4.2 m.\n');
    expect(pdf.toString('latin1')).toContain('/Title <FEFF');
    expect((await extractBytes(pdf, 'balance.pdf')).title).toBe('Lake Varen Water Balance 2015–2024: Technical Report');
    const shipped = readFileSync(join(__dirname, '../../../../examples/corpus/krwa-technical-report-water-balance-2024.pdf'));
    expect((await extractBytes(shipped, 'krwa.pdf')).title).toBe('Lake Varen Water Balance 2015–2024: Technical Report TR-2024-09');
  });

  it('takes the first line as title when the PDF has no Title', async () => {
    expect((await extractBytes(minimalPdf([['First line here', 'more']]), 'x.pdf')).title).toBe('First line here');
  });

  it('names corrupt, encrypted and text-less PDFs', async () => {
    expect(await failure(Buffer.from('%PDF-1.4\nthis is not a pdf at all\n%%EOF'), 'bad.pdf')).toBe('corrupt_pdf');
    expect(await failure(minimalPdf([['Truncated']]).subarray(0, 120), 'cut.pdf')).toBe('corrupt_pdf');
    expect(await failure(encryptedPdf(), 'locked.pdf')).toBe('encrypted_pdf');
    expect(await failure(minimalPdf([[]]), 'scan.pdf')).toBe('empty');
  });
});

describe('bad input', () => {
  it('refuses binary content in a text file, with or without NUL bytes', async () => {
    expect(await failure(Buffer.from([0x48, 0x69, 0x00, 0x01, 0x02, 0x48, 0x69]), 'nul.txt')).toBe('binary');
    const noNul = Buffer.alloc(4096);
    for (let i = 0; i < noNul.length; i++) noNul[i] = 1 + ((i * 7919) % 255);
    expect(noNul.includes(0)).toBe(false);
    expect(await failure(noNul, 'blob.md')).toBe('binary');
    expect(() => decodeText(noNul)).toThrow(/binary content/);
  });

  it('calls a file with nothing but whitespace empty', async () => {
    expect(await failure(Buffer.alloc(0), 'empty.md')).toBe('empty');
    expect(await failure(utf8(' \r\n\t\n '), 'blank.txt')).toBe('empty');
  });

  it('refuses an unsupported extension', async () => {
    expect(await failure(utf8('text'), 'report.docx')).toBe('unsupported');
  });
});

describe('normalizeText', () => {
  it('drops control characters and lone surrogates that Postgres would not store as hashed', () => {
    expect(normalizeText('a\u0000b\u0007c\uD800d\r\ne')).toBe('abc\uFFFDd\ne');
  });
});
