/**
 * `npm run bench` (part 3): report.pdf render time and size (pdfkit, embedded DejaVu subset), for the render
 * tests' fixture report and for a large synthetic one (60 sections, 200 sources, 600 excerpts). Timings are
 * the median of several renders in this process, after one warm-up (font parsing happens once per render).
 */
import type { ReportJson } from '@dossier/contracts';
import { renderMarkdown, renderPdf } from '@dossier/render';
import { fixtureReport } from '@dossier/testing';

function largeReport(sections: number, sources: number): ReportJson {
  const report = fixtureReport();
  report.sections = [];
  report.evidence = {};
  report.sources = {};
  report.claims = {};
  report.contradictions = [];
  for (let s = 1; s <= sources; s++) {
    report.sources[`S${s}`] = {
      number: s,
      url: `https://example.org/reports/${s}/a-rather-long-path-to-the-document-number-${s}.html?section=${s % 7}`,
      title: `Source document ${s}: findings on the question from an independent body`,
      contentHash: `sha256:${String(s).padStart(64, '0')}`,
      fetchedAt: '2025-02-27T09:10:00Z',
      origin: 'web',
      authority: 'official',
    };
  }
  let e = 0;
  for (let i = 1; i <= sections; i++) {
    const paragraphs = Array.from({ length: 4 }, (_, p) => ({
      sentences: Array.from({ length: 4 }, (_, k) => {
        const ids = [`E${++e}`, `E${++e}`];
        for (const id of ids) {
          report.evidence[id] = {
            sourceId: `S${(e % sources) + 1}`,
            excerpt: `Measured figure ${e}: the level fell by ${e % 13} metres between 2014 and 2024 according to this source.`,
            start: 0,
            end: 10,
            claimIds: [],
          };
        }
        return {
          text: `Sentence ${k + 1} of paragraph ${p + 1} in section ${i} states a verified finding about the question, with numbers such as ${e}.`,
          evidenceIds: ids,
        };
      }),
    }));
    report.sections.push({ id: `sec-${i}`, title: `Section ${i}: one aspect of the question`, kind: 'body', paragraphs });
  }
  return report;
}

async function measure(name: string, report: ReportJson, runs: number): Promise<void> {
  await renderPdf(report);
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    size = (await renderPdf(report)).length;
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  const md = Buffer.byteLength(renderMarkdown(report));
  console.log(
    `${name.padEnd(34)} pdf ${(size / 1024).toFixed(0).padStart(5)} KiB (md ${(md / 1024).toFixed(0).padStart(4)} KiB)` +
      `  render median ${times[Math.floor(times.length / 2)]!.toFixed(0).padStart(5)} ms, max ${times.at(-1)!.toFixed(0)} ms`,
  );
}

async function main(): Promise<void> {
  console.log('report.pdf (pdfkit 0.20, DejaVu Sans subset embedded)');
  await measure('fixture (6 sections, 3 sources)', fixtureReport(), 9);
  await measure('large (60 sections, 200 sources)', largeReport(60, 200), 5);
}

void main();
