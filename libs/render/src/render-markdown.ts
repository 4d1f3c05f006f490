import type { ReportJson } from '@dossier/contracts';
import { indexCitations, type Citation, type CitationIndex } from './citations';
import { escapeMarkdown, escapeMarkdownLines, markdownUrl } from './escape-markdown';
import { formatDate, formatDateTime, metricItems, shortHash, sourceProvenance } from './format';
import type { RenderOptions } from './render-options';
import { paragraphBlocks } from './paragraph-blocks';
import { linkableUrl } from './safe-url';
import { validateReport } from './validate-report';

/**
 * `report.md`: the question as H1, a metadata line, every section as H2 in order with `[N]` source numbers
 * after each sentence, the cited sources, and (by default) the cited excerpts. All report text is escaped,
 * so a title or sentence can neither change the layout nor add a link, image or HTML.
 */
export function renderMarkdown(report: ReportJson, options: RenderOptions = {}): string {
  return renderValidatedMarkdown(validateReport(report), options);
}

/** For callers that already ran `validateReport` on this object (see `renderAll`). */
export function renderValidatedMarkdown(report: ReportJson, options: RenderOptions = {}): string {
  const index = indexCitations(report);
  // A fence longer than any run of backticks in the code, so the code cannot close it.
  const fenced = (code: string) => {
    const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((m) => m.length));
    const fence = '`'.repeat(longest + 1);
    return `${fence}\n${code.replace(/\r/g, '')}\n${fence}`;
  };
  const blocks: string[] = [
    `# ${escapeMarkdown(report.question) || 'Research report'}`,
    [
      `Run: ${escapeMarkdown(report.runId)}${report.importedFrom ? ` (imported from run ${escapeMarkdown(report.importedFrom)})` : ''}`,
      `Engine: ${escapeMarkdown(report.engine)}`,
      `Created: ${escapeMarkdown(formatDateTime(report.createdAt))}`,
      `Status: ${escapeMarkdown(report.status)}`,
    ].join(' · '),
  ];
  for (const section of report.sections) {
    blocks.push(`## ${escapeMarkdown(section.title)}`);
    for (const paragraph of section.paragraphs) {
      // Blocks: a term leads the sentences describing it; code follows the sentence that introduces it (0102, 0153).
      for (const block of paragraphBlocks(paragraph.sentences)) {
        const text = block.sentences
          .map((sentence) => `${escapeMarkdown(sentence.text)}${citationMarks(index.citationsOf(sentence))}`)
          .filter((s) => s.length > 0)
          .join(' ');
        if (text) blocks.push(block.term ? `${inlineCode(block.term)}: ${text}` : text);
        if (block.code) blocks.push(fenced(block.code));
      }
    }
  }
  if (report.interviews && report.interviews.length > 0) {
    blocks.push('## Interviews');
    for (const interview of report.interviews) {
      const { name, role, focus } = interview.analyst;
      blocks.push(`### ${escapeMarkdown(role ? `${name}, ${role}` : name)}`);
      if (focus) blocks.push(`Focus: ${escapeMarkdown(focus)}`);
      interview.turns.forEach((turn, i) => {
        const answer = turn.answer.map((s) => `${escapeMarkdown(s.text)}${citationMarks(index.citationsOf(s))}`).join(' ');
        blocks.push(`**Q${i + 1}.** ${escapeMarkdown(turn.question)}`, answer || '_No answer found in the sources._');
      });
    }
  }
  if (index.citedSources.length > 0) blocks.push('## Sources', sourceList(index));
  if ((options.evidenceAppendix ?? true) && index.citedEvidence.length > 0) {
    blocks.push('## Evidence', ...evidenceAppendix(index));
  }
  blocks.push('---', `Run metrics: ${metricItems(report.metrics).map(escapeMarkdown).join(' · ')}`);
  return `${blocks.join('\n\n')}\n`;
}

/**
 * A term as inline code: delimited by more backticks than any run in it, padded when it starts or ends with one, so a
 * term from a source can neither close its code span nor add markup.
 */
function inlineCode(term: string): string {
  const text = term.replace(/\s+/g, ' ');
  const ticks = '`'.repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

// `[1][3]` is literal text in CommonMark: no reference definitions are ever written, so it cannot link.
function citationMarks(citations: Citation[]): string {
  return citations.length === 0 ? '' : ` ${citations.map((c) => `[${c.number}]`).join('')}`;
}

/**
 * The numbered source list. Markdown renumbers an ordered list from its first item, so a gap in the
 * numbers (an uncited source between cited ones) would silently shift every later number. Each run of
 * consecutive numbers is therefore its own list; switching the delimiter (`.` ↔ `)`) is what starts a new
 * list in CommonMark, and a renderer then honours each list's start number.
 */
function sourceList(index: CitationIndex): string {
  const lines: string[] = [];
  let delimiter = '.';
  let previous: number | undefined;
  for (const { source } of index.citedSources) {
    if (previous !== undefined && source.number !== previous + 1) delimiter = delimiter === '.' ? ')' : '.';
    previous = source.number;
    lines.push(`${source.number}${delimiter} ${sourceEntry(source)}`);
  }
  return lines.join('\n');
}

function sourceEntry(source: ReportJson['sources'][string]): string {
  const title = escapeMarkdown(source.title) || escapeMarkdown(source.url) || 'Untitled source';
  const href = linkableUrl(source.url);
  // A URL with any other scheme (javascript:, data:, …) is shown, never linked.
  const head = href === null ? `${title} (${escapeMarkdown(source.url)})` : `[${title}](${markdownUrl(href)})`;
  const details = [sourceProvenance(source), `fetched ${formatDate(source.fetchedAt)}`, `hash ${shortHash(source.contentHash)}`].filter(
    (d) => d.length > 0,
  );
  return `${head} — ${details.map(escapeMarkdown).join(' · ')}`;
}

function evidenceAppendix(index: CitationIndex): string[] {
  return index.citedEvidence.map(({ evidenceId, excerpt, number }) => {
    const quote = escapeMarkdownLines(excerpt).map((line) => (line ? `> ${line}` : '>'));
    return `**${escapeMarkdown(evidenceId)}** · source [${number}]\n\n${quote.join('\n')}`;
  });
}
