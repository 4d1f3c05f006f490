import { ReportJson, RunView, SharedReportView } from '@dossier/contracts';
import { compactText, readPdf, StopWaiting, waitFor } from '@dossier/testing';
import { client, QUESTION, startGateway, uploadCorpus, type Gateway } from './gateway-harness';

/**
 * Issue 25 item 6 (decision 0086): one set of verification figures. An offline run's three figures — checks made,
 * sentences in the report, supported by their cited passages — read the same in report.json, report.md, report.html,
 * the PDF's text, the runs API and a share link's view of the run.
 */
describe('gateway: the report and the run say the same verification figures', () => {
  let gw: Gateway;

  beforeAll(async () => {
    gw = await startGateway({ workers: true });
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
  });

  /** The figure after its label, in a text where labels and values may be split by spaces, line breaks or markup. */
  function figure(text: string, label: string): number | null {
    const words = label.split(' ').join('\\s*');
    const match = new RegExp(`${words}:?\\s*(?:<[^>]*>\\s*)*([\\d,]+)`, 'i').exec(text);
    return match ? Number(match[1]!.replace(/,/g, '')) : null;
  }
  const figuresIn = (text: string) => ({
    checked: figure(text, 'checks made'),
    sentences: figure(text, 'sentences in the report'),
    supported: figure(text, 'supported by their cited passages'),
  });

  it('json, md, html, the PDF, the runs API and a shared link: the same checks made, sentences and supported sentences', async () => {
    const t = await gw.tenant('figures', { engines: ['offline'] });
    const api = client(gw.url, t.key);
    await uploadCorpus(api, 'varen');
    const started = await api('POST', '/v1/runs', {
      question: QUESTION,
      options: { collection: 'varen', perspectives: 2, maxIterations: 1 },
    });
    expect(started.status).toBe(201);
    const runId: string = started.json.id;
    const run = await waitFor(`run ${runId} to complete`, async () => {
      const view = RunView.parse((await api('GET', `/v1/runs/${runId}`)).json);
      if (view.status === 'failed' || view.status === 'cancelled')
        throw new StopWaiting(`run ${runId} ${view.status}: ${view.failureReason}`);
      return view.status === 'completed' ? view : undefined;
    });

    const report = ReportJson.parse((await api('GET', `/v1/runs/${runId}/report.json`)).json);
    const v = report.metrics.verification!;
    // What the report holds, counted here: every sentence outside the method section, and those citing passages.
    const sentences = report.sections.filter((s) => s.kind !== 'method').flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
    const expected = {
      checked: v.checked,
      sentences: sentences.length,
      supported: sentences.filter((s) => s.evidenceIds.length > 0).length,
    };
    expect({ checked: v.checked, sentences: v.sentences, supported: v.supported }).toEqual(expected);
    expect(report.metrics.verifiedSentences).toBe(expected.sentences);
    // Checks made count every round of every part: never fewer than the sentences they let through.
    expect(expected.checked).toBeGreaterThanOrEqual(expected.supported);
    expect(expected.supported).toBeGreaterThan(0);

    const md = (await api('GET', `/v1/runs/${runId}/report.md`)).text;
    const html = (await api('GET', `/v1/runs/${runId}/report.html`)).text;
    const pdfReply = await fetch(`${gw.url}/v1/runs/${runId}/report.pdf`, { headers: { authorization: `Bearer ${t.key}` } });
    expect(pdfReply.status).toBe(200);
    const pdf = await readPdf(new Uint8Array(await pdfReply.arrayBuffer()));
    expect(figuresIn(md)).toEqual(expected);
    expect(figuresIn(html)).toEqual(expected);
    // The cover's table and the method section say the same; PDF.js may split a label over lines.
    expect(figuresIn(compactText(pdf.pages[0]!))).toEqual(expected);
    expect(figuresIn(compactText(pdf.pages.slice(1).join('\n')))).toEqual(expected);

    expect(run.progress!.verification).toEqual({ ...expected, rounds: v.rounds });
    const created = await api('POST', `/v1/runs/${runId}/shares`, { expiresInHours: 1 });
    expect(created.status).toBe(201);
    const shared = SharedReportView.parse((await client(gw.url, created.json.token)('GET', '/v1/shared')).json);
    expect(shared.verification).toEqual(run.progress!.verification);
  }, 600_000);
});
