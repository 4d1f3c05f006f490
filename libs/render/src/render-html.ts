import type { ReportJson } from '@dossier/contracts';
import { indexCitations, type Citation, type CitationIndex } from './citations';
import { cssClassToken, escapeHtml } from './escape-html';
import { formatDate, formatDateTime, metricItems, shortHash, sourceProvenance } from './format';
import { REPORT_CSS } from './html-styles';
import type { RenderOptions } from './render-options';
import { paragraphBlocks } from './paragraph-blocks';
import { linkableUrl } from './safe-url';
import { validateReport } from './validate-report';

/**
 * No script, no external fetch, no plugin; inline styles only, images only as data: URLs. Even if some
 * report text slipped past escaping, the browser would refuse to run or load anything from it.
 */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * `report.html`: one self-contained, script-free HTML5 file. Every piece of report text goes through
 * {@link escapeHtml} (text is never inserted as markup); only http, https and corpus URLs become links.
 * Each `[N]` links to `#src-N` in the source list and carries the cited excerpt(s) in its `title`.
 */
export function renderHtml(report: ReportJson, options: RenderOptions = {}): string {
  return renderValidatedHtml(validateReport(report), options);
}

/** For callers that already ran `validateReport` on this object (see `renderAll`). */
export function renderValidatedHtml(report: ReportJson, options: RenderOptions = {}): string {
  const index = indexCitations(report);
  const title = report.question.trim() || 'Research report';
  const body: string[] = [
    '<header>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="meta"><span>Run <code>${escapeHtml(report.runId)}</code>${report.importedFrom ? ` (imported from run <code>${escapeHtml(report.importedFrom)}</code>)` : ''}</span><span>Engine ${escapeHtml(report.engine)}</span>` +
      `<span>Created <time datetime="${escapeHtml(report.createdAt)}">${escapeHtml(formatDateTime(report.createdAt))}</time></span>` +
      `<span class="status status-${cssClassToken(report.status)}">Status ${escapeHtml(report.status)}</span></p>`,
    '</header>',
  ];
  for (const section of report.sections) body.push(sectionHtml(section, index));
  if (report.interviews && report.interviews.length > 0) body.push(interviewsHtml(report.interviews, index));
  if (index.citedSources.length > 0) body.push(sourcesHtml(index));
  if ((options.evidenceAppendix ?? true) && index.citedEvidence.length > 0) body.push(evidenceHtml(index));
  body.push(`<footer class="metrics">Run metrics: ${metricItems(report.metrics).map(escapeHtml).join(' · ')}</footer>`);

  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(REPORT_CSP)}">`,
    // Source links must not tell the cited site where the reader came from (a private corpus, a run id).
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<main class="report">',
    ...body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function sectionHtml(section: ReportJson['sections'][number], index: CitationIndex): string {
  const lines = [
    `<section class="section ${cssClassToken(section.kind)}" id="section-${escapeHtml(idToken(section.id))}">`,
    `<h2>${escapeHtml(section.title)}</h2>`,
  ];
  for (const paragraph of section.paragraphs) {
    if (paragraph.sentences.length === 0) continue;
    // Blocks: a term leads the sentences describing it; code follows the sentence that introduces it (0102, 0153).
    for (const block of paragraphBlocks(paragraph.sentences)) {
      const run = block.sentences.map((s) => `${escapeHtml(s.text.trim())}${index.citationsOf(s).map(citeHtml).join('')}`);
      const term = block.term ? `<code class="term">${escapeHtml(block.term)}</code>: ` : '';
      lines.push(`<p>${term}${run.join(' ')}</p>`);
      if (block.code) lines.push(`<pre class="code"><code>${escapeHtml(block.code)}</code></pre>`);
    }
  }
  lines.push('</section>');
  return lines.join('\n');
}

/** Each analyst's interview: its questions and the expert's cited answers, after the report's sections. */
function interviewsHtml(interviews: NonNullable<ReportJson['interviews']>, index: CitationIndex): string {
  const lines = ['<section class="section interviews" id="interviews">', '<h2>Interviews</h2>'];
  for (const interview of interviews) {
    const { name, role, focus } = interview.analyst;
    lines.push(`<h3>${escapeHtml(name)}${role ? `, ${escapeHtml(role)}` : ''}</h3>`);
    if (focus) lines.push(`<p class="meta">Focus: ${escapeHtml(focus)}</p>`);
    lines.push('<dl class="interview">');
    interview.turns.forEach((turn, i) => {
      const answer = turn.answer.map((s) => `${escapeHtml(s.text.trim())}${index.citationsOf(s).map(citeHtml).join('')}`).join(' ');
      lines.push(`<dt>Q${i + 1}. ${escapeHtml(turn.question)}</dt>`, `<dd>${answer || '<em>No answer found in the sources.</em>'}</dd>`);
    });
    lines.push('</dl>');
  }
  lines.push('</section>');
  return lines.join('\n');
}

function citeHtml(citation: Citation): string {
  const tooltip = citation.excerpts.map((e) => `${e.evidenceId}: “${oneLine(e.excerpt)}”`).join('\n\n');
  return `<a class="cite" href="#src-${citation.number}" title="${escapeHtml(tooltip)}">[${citation.number}]</a>`;
}

function sourcesHtml(index: CitationIndex): string {
  const items = index.citedSources.map(({ source }) => {
    const href = linkableUrl(source.url);
    const title = escapeHtml(source.title.trim() || 'Untitled source');
    // Any scheme other than http/https/corpus is shown as text only: never an href.
    const head =
      href === null
        ? `<span class="title">${title}</span>`
        : `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${title}</a>`;
    const details = [sourceProvenance(source), `fetched ${formatDate(source.fetchedAt)}`, `hash ${shortHash(source.contentHash)}`]
      .filter((d) => d.length > 0)
      .map(escapeHtml)
      .join(' · ');
    return (
      `<li id="src-${source.number}" value="${source.number}">${head} <span class="details">— ${details}</span>` +
      `<span class="url">${escapeHtml(source.url)}</span></li>`
    );
  });
  // `value` on each item keeps the printed number equal to source.number even when numbers have gaps.
  return ['<section class="sources-section">', '<h2>Sources</h2>', '<ol class="sources">', ...items, '</ol>', '</section>'].join('\n');
}

function evidenceHtml(index: CitationIndex): string {
  const items = index.citedEvidence.map(({ evidenceId, excerpt, number }) => {
    return (
      `<div id="ev-${escapeHtml(idToken(evidenceId))}"><dt>${escapeHtml(evidenceId)} · source <a href="#src-${number}">[${number}]</a></dt>` +
      `<dd><blockquote>${escapeHtml(excerpt.trim())}</blockquote></dd></div>`
    );
  });
  return ['<section class="evidence-section">', '<h2>Evidence</h2>', '<dl class="evidence">', ...items, '</dl>', '</section>'].join('\n');
}

// HTML ids may not contain whitespace; everything else is escaped by the caller.
function idToken(id: string): string {
  return id.replace(/\s+/g, '-') || '-';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
