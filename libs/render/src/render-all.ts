import type { ReportJson } from '@dossier/contracts';
import { renderValidatedHtml } from './render-html';
import { renderValidatedJson } from './render-json';
import { renderValidatedMarkdown } from './render-markdown';
import type { RenderOptions } from './render-options';
import { validateReport } from './validate-report';

export interface RenderedReport {
  md: string;
  html: string;
  json: string;
}

/** All three report files from one validation of the report model. */
export function renderAll(report: ReportJson, options: RenderOptions = {}): RenderedReport {
  const valid = validateReport(report);
  return {
    md: renderValidatedMarkdown(valid, options),
    html: renderValidatedHtml(valid, options),
    json: renderValidatedJson(valid),
  };
}
