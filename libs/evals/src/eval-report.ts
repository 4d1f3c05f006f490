import { escapeHtml, escapeMarkdown } from '@dossier/render';
import type { EvalReport, QuestionScore } from './eval-report-schema';
import { formatMetric, METRICS } from './metrics';

/*
 * The eval report in three formats: eval.json (the schema; what `dossier eval compare` reads), eval.md and eval.html
 * (for people). Every text that came from the set or a report is escaped: a question or a report sentence is data.
 */

export function evalJson(report: EvalReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const share = (v: number | null) => formatMetric(v, 'share');

function judgeLine(report: EvalReport): string {
  return report.judgeModel
    ? `Citation support is checked by the deterministic guard and judged by ${report.judgeModel} (the verifier role's model, pinned for this eval).`
    : 'Citation support is checked by the deterministic guard only (no model judge: offline engine).';
}

function questionRow(q: QuestionScore): string[] {
  return [
    q.id,
    share(q.keyPointRecall),
    share(q.sourceRecall),
    String(q.trapHits),
    share(q.citationSupport),
    share(q.judgeSupport),
    share(q.excerptVerbatimRate),
    String(q.words),
    formatMetric(q.wallMs, 'ms'),
    String(q.llmCalls),
    String(q.tokensIn + q.tokensOut),
    q.lint ? String(q.lint.defects) : '—',
  ];
}

/** The lint's kinds over the whole eval, each with its count, then each question's examples (docs/decisions/0045). */
function lintLines(report: EvalReport): {
  kinds: string[][];
  examples: { id: string; kind: string; detail: string; section: string; text: string }[];
} {
  const kinds = Object.entries(report.overall.lintByKind ?? {})
    .filter(([, n]) => n > 0)
    .map(([k, n]) => [k, String(n)]);
  const examples = report.questions.flatMap((q) => (q.lint?.examples ?? []).map((e) => ({ id: q.id, ...e })));
  return { kinds, examples };
}

const QUESTION_HEADER = [
  'question',
  'recall',
  'sources',
  'traps',
  'support (guard)',
  'support (judge)',
  'verbatim',
  'words',
  'time',
  'calls',
  'tokens',
  'lint',
];

/** Table cells hold our own labels, figures and validated question ids: only a pipe or a line break could break them. */
function mdCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function mdTable(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.map(mdCell).join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`),
  ];
}

export function evalMarkdown(report: EvalReport): string {
  const o = report.overall;
  const lines = [
    `# Eval: ${escapeMarkdown(report.set.title)} (${escapeMarkdown(report.set.name)})`,
    '',
    `Engine ${report.engine}, collection ${escapeMarkdown(report.collection)}, started ${report.startedAt}. ${escapeMarkdown(judgeLine(report))}`,
    '',
    '## Overall',
    '',
    ...mdTable(
      ['metric', 'value'],
      METRICS.map((m) => [m.label, formatMetric(o[m.key], m.format)]),
    ),
    '',
    `${o.keyPointsFound} of ${o.keyPoints} key points found over ${o.questions} questions${o.failed > 0 ? ` (${o.failed} failed)` : ''}.`,
    '',
    '## Per question',
    '',
    ...mdTable(QUESTION_HEADER, report.questions.map(questionRow)),
    '',
  ];
  const lint = lintLines(report);
  if (lint.kinds.length > 0) {
    lines.push('## Report lint', '', ...mdTable(['kind', 'defects'], lint.kinds), '');
    for (const e of lint.examples)
      lines.push(
        `- ${escapeMarkdown(e.id)} · ${escapeMarkdown(e.kind)} (${escapeMarkdown(e.detail)}) in “${escapeMarkdown(e.section)}”: “${escapeMarkdown(e.text)}”`,
      );
    lines.push('');
  }
  for (const q of report.questions) {
    lines.push(`### ${escapeMarkdown(q.id)}: ${escapeMarkdown(q.question)}`, '');
    if (q.runId) lines.push(`Run ${q.runId}.`, '');
    if (q.error) lines.push(`**Failed:** ${escapeMarkdown(q.error)}`, '');
    for (const k of q.keyPoints)
      lines.push(`- ${k.found ? 'found' : 'missed'}: ${escapeMarkdown(k.fact)}${k.sentence ? ` — “${escapeMarkdown(k.sentence)}”` : ''}`);
    for (const t of q.traps.filter((t) => t.hit))
      lines.push(`- TRAP: ${escapeMarkdown(t.statement)} — “${escapeMarkdown(t.sentence ?? '')}”`);
    for (const s of q.sources) lines.push(`- source ${s.cited ? 'cited' : 'not cited'}: ${escapeMarkdown(s.path)}`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

function htmlTable(header: string[], rows: string[][]): string {
  const th = header.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const trs = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${trs}\n</tbody>\n</table>`;
}

function lintHtml(report: EvalReport): string {
  const lint = lintLines(report);
  if (lint.kinds.length === 0) return '';
  const items = lint.examples
    .map(
      (e) =>
        `<li>${escapeHtml(e.id)} · ${escapeHtml(e.kind)} (${escapeHtml(e.detail)}) in <q>${escapeHtml(e.section)}</q>: <q>${escapeHtml(e.text)}</q></li>`,
    )
    .join('\n');
  return `<h2>Report lint</h2>\n${htmlTable(['kind', 'defects'], lint.kinds)}\n<ul>${items}</ul>`;
}

export function evalHtml(report: EvalReport): string {
  const o = report.overall;
  const details = report.questions
    .map((q) => {
      const items = [
        ...q.keyPoints.map(
          (k) =>
            `<li class="${k.found ? 'found' : 'missed'}">${k.found ? 'found' : 'missed'}: ${escapeHtml(k.fact)}${k.sentence ? ` — <q>${escapeHtml(k.sentence)}</q>` : ''}</li>`,
        ),
        ...q.traps
          .filter((t) => t.hit)
          .map((t) => `<li class="trap">TRAP: ${escapeHtml(t.statement)} — <q>${escapeHtml(t.sentence ?? '')}</q></li>`),
        ...q.sources.map((s) => `<li>source ${s.cited ? 'cited' : 'not cited'}: <code>${escapeHtml(s.path)}</code></li>`),
      ];
      return [
        `<section><h3>${escapeHtml(q.id)}: ${escapeHtml(q.question)}</h3>`,
        q.runId ? `<p>Run <code>${escapeHtml(q.runId)}</code>.</p>` : '',
        q.error ? `<p class="trap">Failed: ${escapeHtml(q.error)}</p>` : '',
        `<ul>${items.join('\n')}</ul></section>`,
      ].join('\n');
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Eval: ${escapeHtml(report.set.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}.missed{color:#8a4b00}.trap{color:#b00020;font-weight:600}</style>
</head>
<body>
<h1>Eval: ${escapeHtml(report.set.title)} (${escapeHtml(report.set.name)})</h1>
<p>Engine ${escapeHtml(report.engine)}, collection ${escapeHtml(report.collection)}, started ${escapeHtml(report.startedAt)}. ${escapeHtml(judgeLine(report))}</p>
<h2>Overall</h2>
${htmlTable(
  ['metric', 'value'],
  METRICS.map((m) => [m.label, formatMetric(o[m.key], m.format)]),
)}
<p>${o.keyPointsFound} of ${o.keyPoints} key points found over ${o.questions} questions${o.failed > 0 ? ` (${o.failed} failed)` : ''}.</p>
<h2>Per question</h2>
${htmlTable(QUESTION_HEADER, report.questions.map(questionRow))}
${lintHtml(report)}
${details}
</body>
</html>
`;
}

/** The three files of an eval, by name. */
export function renderEvalReport(report: EvalReport): Record<'eval.json' | 'eval.md' | 'eval.html', string> {
  return { 'eval.json': evalJson(report), 'eval.md': evalMarkdown(report), 'eval.html': evalHtml(report) };
}
