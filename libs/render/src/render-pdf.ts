import PDFDocument from 'pdfkit';
import type { ReportJson } from '@dossier/contracts';
import { indexCitations, type CitationIndex } from './citations';
import { formatDate, formatDateTime, groupThousands, metricItems, shortHash, sourceProvenance } from './format';
import { pdfFont, type PdfFont } from './pdf-fonts';
import { paragraphBlocks } from './paragraph-blocks';
import type { RenderOptions } from './render-options';
import { validateReport } from './validate-report';

type Doc = PDFKit.PDFDocument;
type Section = ReportJson['sections'][number];

const INK = '#1a1a1a';
const MUTED = '#5a5a5a';
const ACCENT = '#1d4f91';
const MARGIN = 64;
// A heading with less than this much room below it starts a new page, so it never ends a page alone.
const KEEP_WITH_NEXT = 90;

/**
 * `report.pdf`: a title page (question, date, engine, verification figures), every section in report order
 * with `[N]` after each sentence (each a link to its entry in the source list), the sources with their links,
 * the cited excerpts (by default) and the run metrics. pdfkit writes the PDF in this process: no browser, no
 * network, fonts from an npm package (see `PDF_FONTS`). Report text is only ever drawn as text, never parsed
 * as markup, and only http(s) URLs become link annotations.
 */
export async function renderPdf(report: ReportJson, options: RenderOptions = {}): Promise<Buffer> {
  return renderValidatedPdf(validateReport(report), options);
}

/** For callers that already ran `validateReport` on this object (see `renderAll`). */
export function renderValidatedPdf(report: ReportJson, options: RenderOptions = {}): Promise<Buffer> {
  const index = indexCitations(report);
  const title = report.question.trim() || 'Research report';
  // The creation date is the run's, not the clock's: pdfkit derives the file id from the info dictionary, so
  // the same report gives the same bytes.
  const created = new Date(Date.parse(report.createdAt));
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    displayTitle: true,
    lang: 'en',
    info: {
      Title: title,
      Author: 'Dossier',
      Subject: `Research report of run ${report.runId}`,
      Producer: 'Dossier',
      Creator: 'Dossier',
      CreationDate: Number.isNaN(created.getTime()) ? new Date(0) : created,
    },
  });
  for (const name of ['regular', 'bold', 'italic'] as const satisfies PdfFont[]) {
    // pdfkit takes a parsed fontkit font where its types say path or bytes (PDFFontFactory.open checks `layout`).
    doc.registerFont(name, pdfFont(name) as unknown as Buffer);
  }

  const done = collect(doc);
  titlePage(doc, report, title, index);
  doc.addPage();
  for (const section of report.sections) sectionBlock(doc, section, index);
  if (index.citedSources.length > 0) sourcesBlock(doc, index);
  if ((options.evidenceAppendix ?? true) && index.citedEvidence.length > 0) evidenceBlock(doc, index);
  doc.moveDown(1);
  doc
    .font('regular')
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(`Run metrics: ${metricItems(report.metrics).join(' · ')}`);
  pageFooters(doc, title);
  doc.end();
  return done;
}

function collect(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

function titlePage(doc: Doc, report: ReportJson, title: string, index: CitationIndex): void {
  doc.moveDown(6);
  doc.font('regular').fontSize(10).fillColor(MUTED).text('RESEARCH REPORT', { characterSpacing: 1.5 });
  doc.moveDown(0.8);
  doc.font('bold').fontSize(22).fillColor(INK).text(title, { lineGap: 4 });
  doc.moveDown(1.5);
  const facts: [string, string][] = [
    ['Date', formatDateTime(report.createdAt)],
    ['Engine', report.engine],
    ['Status', report.status],
    ['Run', report.importedFrom ? `${report.runId} (imported from run ${report.importedFrom})` : report.runId],
    ['Sources cited', groupThousands(index.citedSources.length)],
    ['Claims', groupThousands(Object.keys(report.claims).length)],
    ['Disagreements', groupThousands(report.contradictions.length)],
  ];
  factTable(doc, facts);
  const v = report.metrics.verification;
  if (v) {
    doc.moveDown(1.2);
    doc.font('bold').fontSize(12).fillColor(INK).text('Verification');
    doc.moveDown(0.4);
    factTable(doc, [
      // The report's three figures, in the words of every format and the web app (decision 0086); reports written
      // before sentences were counted with them show the checks only.
      ['Checks made', groupThousands(v.checked)],
      ...(v.sentences !== undefined
        ? ([
            ['Sentences in the report', groupThousands(v.sentences)],
            ['Supported by their cited passages', groupThousands(v.supported ?? 0)],
          ] as [string, string][])
        : []),
      ['Failed the guard', groupThousands(v.failedByGuard)],
      ['Failed the judge', groupThousands(v.failedByJudge)],
      ['Repaired', groupThousands(v.repaired)],
      ['Removed', groupThousands(v.removed)],
      // Who judged (decision 0040); reports written before it was counted have no such figures.
      ...(v.judgedByModel !== undefined
        ? ([
            ['Judged by the model', groupThousands(v.judgedByModel)],
            ['Judged offline', groupThousands(v.judgedOffline ?? 0)],
            ['Guard only', groupThousands(v.guardOnly ?? 0)],
          ] as [string, string][])
        : []),
    ]);
  } else {
    doc.moveDown(1.2);
    doc.font('regular').fontSize(10).fillColor(MUTED).text('No verification figures were recorded for this run.');
  }
}

function factTable(doc: Doc, rows: [string, string][]): void {
  const x = doc.page.margins.left;
  const valueX = x + 130;
  const width = doc.page.width - doc.page.margins.right - valueX;
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('regular').fontSize(10.5).fillColor(MUTED).text(label, x, y, { width: 120 });
    const labelBottom = doc.y;
    doc.fillColor(INK).text(value, valueX, y, { width });
    doc.y = Math.max(labelBottom, doc.y) + 3;
  }
  doc.x = x;
}

function heading(doc: Doc, text: string, destination?: string): void {
  if (doc.y > doc.page.height - doc.page.margins.bottom - KEEP_WITH_NEXT) doc.addPage();
  else if (doc.y > doc.page.margins.top + 1) doc.moveDown(0.9);
  doc.outline.addItem(text);
  doc
    .font('bold')
    .fontSize(15)
    .fillColor(INK)
    .text(text, doc.page.margins.left, doc.y, destination ? { destination } : {});
  doc.moveDown(0.4);
}

function sectionBlock(doc: Doc, section: Section, index: CitationIndex): void {
  heading(doc, oneLine(section.title));
  for (const paragraph of section.paragraphs) {
    let parts: { text: string; goTo?: string; bold?: boolean }[] = [];
    const flush = () => {
      if (parts.length === 0) return;
      doc.fontSize(10.5);
      parts.forEach((part, i) => {
        doc.font(part.bold ? 'bold' : 'regular');
        doc.fillColor(part.goTo ? ACCENT : INK).text(part.text, {
          continued: i < parts.length - 1,
          lineGap: 2.5,
          ...(part.goTo ? { goTo: part.goTo } : {}),
        });
      });
      doc.moveDown(0.6);
      parts = [];
    };
    // Blocks: a term leads the sentences describing it; code follows the sentence that introduces it (0102, 0153).
    for (const block of paragraphBlocks(paragraph.sentences)) {
      if (block.term) parts.push({ text: `${oneLine(block.term)}: `, bold: true });
      let first = true;
      for (const sentence of block.sentences) {
        const text = oneLine(sentence.text);
        if (!text) continue;
        parts.push({ text: `${first ? '' : ' '}${text}` });
        first = false;
        for (const c of index.citationsOf(sentence)) parts.push({ text: `[${c.number}]`, goTo: `src-${c.number}` });
      }
      flush();
      if (block.code) {
        doc
          .font('regular')
          .fontSize(9.5)
          .fillColor(INK)
          .text(block.code, doc.page.margins.left + 14, doc.y, { lineGap: 1.5 });
        doc.x = doc.page.margins.left;
        doc.moveDown(0.6);
      }
    }
  }
}

function sourcesBlock(doc: Doc, index: CitationIndex): void {
  heading(doc, 'Sources');
  for (const { source } of index.citedSources) {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 40) doc.addPage();
    const href = webLink(source.url);
    const name = source.title.trim() || source.url || 'Untitled source';
    doc
      .font('bold')
      .fontSize(10)
      .fillColor(INK)
      .text(`[${source.number}] `, { continued: true, destination: `src-${source.number}` });
    doc
      .font('regular')
      .fillColor(href ? ACCENT : INK)
      .text(name, href ? { link: href } : {});
    doc
      .fontSize(8.5)
      .fillColor(href ? ACCENT : MUTED)
      .text(source.url, href ? { link: href } : {});
    const details = [sourceProvenance(source), `fetched ${formatDate(source.fetchedAt)}`, `hash ${shortHash(source.contentHash)}`]
      .filter((d) => d.length > 0)
      .join(' · ');
    doc.fillColor(MUTED).text(details);
    doc.moveDown(0.5);
  }
}

function evidenceBlock(doc: Doc, index: CitationIndex): void {
  heading(doc, 'Evidence');
  const left = doc.page.margins.left;
  for (const { evidenceId, excerpt, number } of index.citedEvidence) {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 40) doc.addPage();
    doc
      .font('bold')
      .fontSize(9)
      .fillColor(INK)
      .text(`${evidenceId} · source [${number}]`, left, doc.y, { goTo: `src-${number}` });
    doc
      .font('italic')
      .fontSize(9)
      .fillColor(MUTED)
      .text(`“${excerpt.trim()}”`, left + 14, doc.y, { width: doc.page.width - doc.page.margins.right - left - 14, lineGap: 1.5 });
    doc.x = left;
    doc.moveDown(0.5);
  }
}

/** "page N of M" under every page but the title page, drawn once all pages exist. */
function pageFooters(doc: Doc, title: string): void {
  const { start, count } = doc.bufferedPageRange();
  const short = title.length > 90 ? `${title.slice(0, 89)}…` : title;
  for (let i = start + 1; i < start + count; i++) {
    doc.switchToPage(i);
    // Text below the bottom margin would make pdfkit start a new page: lift the margin while drawing.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - bottom / 2 - 6;
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    doc.font('regular').fontSize(8).fillColor(MUTED);
    doc.text(short, doc.page.margins.left, y, { width: width - 80, lineBreak: false, ellipsis: true });
    doc.text(`${i - start + 1} / ${count}`, doc.page.margins.left, y, { width, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.flushPages();
}

// Verbatim sentences keep their source's line breaks; inside a run of continued text pdfkit would break the line
// there and misplace the text after it, so a paragraph is laid out as one flowing line.
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Only web links become PDF link annotations; a corpus: or odd URL is shown as text. */
function webLink(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
