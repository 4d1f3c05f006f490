import { flatePdf } from '@dossier/testing';
import { assertInflationWithin, extractBytes, ExtractionError, ExtractionPool, EXTRACTION_LIMITS } from '../../src';
import { minimalPdf } from '../fixtures/minimal-pdf';

const reasonOf = async (work: Promise<unknown>): Promise<string> => {
  try {
    await work;
  } catch (err) {
    if (err instanceof ExtractionError) return `${err.reason}: ${err.message}`;
    throw err;
  }
  return 'extracted';
};

/** Issue 30, item 3: PDF and HTML extraction in worker threads, within caps on inflated bytes, time and memory. */
describe('extraction limits', () => {
  it('a PDF whose Flate streams inflate beyond the cap is refused before PDF.js reads it; within it, nothing is said', () => {
    expect(() => assertInflationWithin(flatePdf(2 * 1024 * 1024), 1024 * 1024)).toThrow(/inflate to more than 1048576 bytes/);
    expect(() => assertInflationWithin(flatePdf(512 * 1024), 1024 * 1024)).not.toThrow();
    expect(() => assertInflationWithin(minimalPdf([['plain, uncompressed text']]), 16)).not.toThrow();
    // A stream that does not inflate (wrong filter, cut short) is left to PDF.js to judge.
    const cut = flatePdf(1024);
    expect(() => assertInflationWithin(cut.subarray(0, cut.indexOf('endstream') - 20), 16)).not.toThrow();
  });

  it('extractBytes reads PDF and HTML in a worker: the text is what the in-thread extractor gave; a bomb is too_large', async () => {
    const pdf = await extractBytes(flatePdf(2048), 'a.pdf');
    expect(pdf.mediaType).toBe('application/pdf');
    expect(pdf.text.startsWith('Compressed line')).toBe(true);
    const html = await extractBytes(Buffer.from('<html><body><h1>Title</h1><p>A paragraph of the page.</p></body></html>'), 'p.html');
    expect(html).toMatchObject({ title: 'Title', mediaType: 'text/html' });
    expect(html.text).toMatch(/A paragraph of the page\./);
    expect(await reasonOf(extractBytes(flatePdf(EXTRACTION_LIMITS.maxInflatedBytes + 1024), 'bomb.pdf'))).toMatch(
      /^too_large: the PDF's compressed streams inflate to more than/,
    );
    // Errors of the worker keep their reason codes.
    expect(await reasonOf(extractBytes(Buffer.from('%PDF-1.4 not really'), 'broken.pdf'))).toMatch(/^corrupt_pdf: /);
  });

  it('past its time limit a worker is stopped and the document is too_large; the next document gets a fresh worker', async () => {
    const pool = new ExtractionPool(1, { ...EXTRACTION_LIMITS, timeoutMs: 1 });
    // 8 MiB of operators take PDF.js far longer than a millisecond.
    expect(await reasonOf(pool.extract('pdf', flatePdf(8 * 1024 * 1024), 'slow.pdf'))).toMatch(
      /^too_large: extraction took longer than 1 ms/,
    );
    const patient = new ExtractionPool(1, EXTRACTION_LIMITS);
    expect((await patient.extract('pdf', flatePdf(1024), 'quick.pdf')).text).toMatch(/^Compressed line/);
  });

  it('past its heap limit a worker is stopped and the document is too_large', async () => {
    const pool = new ExtractionPool(1, { ...EXTRACTION_LIMITS, maxHeapMb: 16, maxInflatedBytes: 256 * 1024 * 1024 });
    expect(await reasonOf(pool.extract('pdf', flatePdf(64 * 1024 * 1024), 'hungry.pdf'))).toMatch(
      /^too_large: extraction needs more than 16 MB/,
    );
  });
});
