import { z } from 'zod';
import { ApprovalDecision, CreateCollectionBody, CreateRunBody, GateName, RunIdParams, UploadDocumentBody } from '@dossier/contracts';

/**
 * The tools' inputs, built from the same zod contracts as the `/v1` bodies they stand for, so a tool accepts
 * exactly what the API accepts (and the SDK publishes them as JSON Schema in `tools/list`).
 */
const runId = RunIdParams.shape.id.describe('the run id (a UUID, as start_research returned it)');
const waitSeconds = z
  .int()
  .min(0)
  .max(600)
  .optional()
  .describe(
    'how long to follow the run, sending progress notifications, before answering (default 50): it answers earlier when a gate opens or the run ends',
  );

export const StartResearchInput = z.strictObject({ ...CreateRunBody.shape, waitSeconds });
export const GetRunInput = z.strictObject({ runId, waitSeconds: waitSeconds.describe('follow the run this long first (default 0)') });
export const ApproveGateInput = z.strictObject({
  runId,
  gate: GateName,
  decision: ApprovalDecision.describe('approve (optionally with the edited plan or outline), or reject with feedback'),
  waitSeconds,
});
export const GetReportInput = z.strictObject({
  runId,
  format: z.enum(['md', 'json']).default('md').describe('md: the report as Markdown; json: report.json (the claims graph)'),
});
export const SearchEvidenceInput = z.strictObject({
  runId,
  query: z.string().trim().min(1).max(500).describe('words to find in the claims and their evidence excerpts'),
  limit: z.int().min(1).max(50).default(10),
});
export const ListCollectionsInput = z.strictObject({});
export const AddDocumentInput = z.strictObject({
  collection: CreateCollectionBody.shape.name.describe('the collection (created if missing)'),
  ...UploadDocumentBody.shape,
});
