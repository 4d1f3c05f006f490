import { z } from 'zod';

/*
 * The research entities of docs/architecture.md §3, as the stages read and write them. Every one belongs to a tenant
 * and a run; the iteration says which research-loop pass produced it.
 */
const id = z.uuid();
const owned = { id, tenantId: id, runId: id };
const text = (max: number) => z.string().min(1).max(max);
const unit = z.number().min(0).max(1);

export const RiskLevel = z.enum(['low', 'medium', 'high']);
export const ResearchObjective = z.strictObject({
  ...owned,
  statement: text(4000),
  includedTopics: z.array(text(300)).max(50),
  excludedTopics: z.array(text(300)).max(50),
  timeFrame: z.string().max(200).nullable(),
  riskLevel: RiskLevel,
});
export type ResearchObjective = z.infer<typeof ResearchObjective>;

export const Perspective = z.strictObject({
  ...owned,
  revision: z.int().min(0),
  name: text(200),
  role: text(200),
  affiliation: z.string().max(200),
  focus: text(2000),
  budgetWeight: unit,
});
export type Perspective = z.infer<typeof Perspective>;

export const QuestionStatus = z.enum(['open', 'answered', 'partial', 'dropped']);
export const ResearchQuestion = z.strictObject({
  ...owned,
  parentId: id.nullable(),
  perspectiveId: id.nullable(),
  iteration: z.int().min(0),
  text: text(2000),
  priority: z.int().min(0).max(100),
  status: QuestionStatus,
});
export type ResearchQuestion = z.infer<typeof ResearchQuestion>;

export const SearchPlan = z.strictObject({
  ...owned,
  questionId: id,
  iteration: z.int().min(0),
  shard: z.int().min(0),
  query: text(1000),
  provider: text(40),
  freshness: z.string().max(40).nullable(),
});
export type SearchPlan = z.infer<typeof SearchPlan>;

export const SourceOrigin = z.enum(['web', 'corpus']);
export const AuthorityClass = z.enum(['official', 'academic', 'documentation', 'news', 'forum', 'blog', 'unknown']);
export const SourceRecord = z.strictObject({
  ...owned,
  searchPlanId: id,
  iteration: z.int().min(0),
  url: text(4000),
  canonicalUrl: text(4000),
  title: z.string().max(1000),
  snippet: z.string().max(4000),
  origin: SourceOrigin,
  rank: z.int().min(0),
  authority: AuthorityClass,
  clusterKey: z.string().nullable(),
  selected: z.boolean(),
  snapshotId: id.nullable(),
});
export type SourceRecord = z.infer<typeof SourceRecord>;

/** Fetched text, stored by content hash; evidence offsets index into `text`, which never changes. */
export const SourceSnapshot = z.strictObject({
  id,
  tenantId: id,
  url: text(4000),
  title: z.string().max(1000),
  contentHash: z.string().length(64),
  text: z.string(),
  mediaType: z.string().max(200),
  fetchedAt: z.date(),
});
export type SourceSnapshot = z.infer<typeof SourceSnapshot>;

export const Document = z.strictObject({
  id,
  tenantId: id,
  collection: text(120),
  path: text(4000),
  title: z.string().max(1000),
  mediaType: z.string().max(200),
  contentHash: z.string().length(64),
  text: z.string(),
  ingestedAt: z.date(),
});
export type Document = z.infer<typeof Document>;

export const EvidenceFragment = z.strictObject({
  ...owned,
  snapshotId: id,
  questionId: id.nullable(),
  iteration: z.int().min(0),
  excerpt: text(20_000),
  start: z.int().min(0),
  end: z.int().min(0),
  statement: text(4000),
  confidence: unit,
});
export type EvidenceFragment = z.infer<typeof EvidenceFragment>;

export const EpistemicStatus = z.enum(['established', 'reported', 'contested', 'speculative']);
export const Claim = z.strictObject({
  ...owned,
  iteration: z.int().min(0),
  statement: text(4000),
  subject: z.string().max(400),
  status: EpistemicStatus,
  evidenceIds: z.array(id).min(1),
});
export type Claim = z.infer<typeof Claim>;

export const ContradictionKind = z.enum(['negation', 'number', 'unit', 'date', 'interpretation']);
export const Contradiction = z.strictObject({
  ...owned,
  claimAId: id,
  claimBId: id,
  kind: ContradictionKind,
  note: z.string().max(2000),
});
export type Contradiction = z.infer<typeof Contradiction>;

export const Coverage = z.strictObject({
  ...owned,
  questionId: id,
  iteration: z.int().min(0),
  score: unit,
  informationGain: unit,
});
export type Coverage = z.infer<typeof Coverage>;

export const OutlineSection = z.strictObject({
  ...owned,
  revision: z.int().min(0),
  position: z.int().min(0),
  title: text(400),
  purpose: z.string().max(2000),
  claimIds: z.array(id),
});
export type OutlineSection = z.infer<typeof OutlineSection>;

export const DraftSentence = z.strictObject({ text: text(4000), evidenceIds: z.array(id) });
export const SectionDraft = z.strictObject({
  ...owned,
  sectionId: id,
  round: z.int().min(0),
  paragraphs: z.array(z.strictObject({ sentences: z.array(DraftSentence) })),
});
export type SectionDraft = z.infer<typeof SectionDraft>;

export const VerificationVerdict = z.enum(['supported', 'unsupported', 'contradicted', 'uncited']);
export const VerificationFinding = z.strictObject({
  ...owned,
  sectionId: id,
  round: z.int().min(0),
  paragraph: z.int().min(0),
  sentence: z.int().min(0),
  verdict: VerificationVerdict,
  score: unit,
  note: z.string().max(2000),
});
export type VerificationFinding = z.infer<typeof VerificationFinding>;

export const ReportFormat = z.enum(['md', 'html', 'json', 'pdf']);
export type ReportFormat = z.infer<typeof ReportFormat>;
/** Report files that are bytes, not text: stored base64 in the artifact's text column (decision 0028). */
export const BINARY_REPORT_FORMATS: readonly ReportFormat[] = ['pdf'];
/** The media type each report file is served with. */
export const REPORT_MEDIA_TYPES: Record<ReportFormat, string> = {
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  pdf: 'application/pdf',
};
export const ReportArtifact = z.strictObject({
  ...owned,
  format: ReportFormat,
  content: z.string(),
  createdAt: z.date(),
});
export type ReportArtifact = z.infer<typeof ReportArtifact>;
