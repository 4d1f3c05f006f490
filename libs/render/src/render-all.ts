import type { ReportJson } from '@dossier/contracts';
import { renderValidatedHtml } from './render-html';
import { renderValidatedJson } from './render-json';
import { renderValidatedMarkdown } from './render-markdown';
import type { RenderOptions } from './render-options';
import { renderValidatedPdf } from './render-pdf';
import { validateReport } from './validate-report';

export interface RenderedReport {
  md: string;
  html: string;
  json: string;
  pdf: Buffer;
}

/** Every report file from one validation of the report model. */
export async function renderAll(report: ReportJson, options: RenderOptions = {}): Promise<RenderedReport> {
  const valid = validateReport(report);
  return {
    md: renderValidatedMarkdown(valid, options),
    html: renderValidatedHtml(valid, options),
    json: renderValidatedJson(valid),
    pdf: await renderValidatedPdf(valid, options),
  };
}
