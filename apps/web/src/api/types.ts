// Types only: the contracts the gateway validates with (libs/contracts). Nothing of zod reaches the bundle.
export type {
  ApprovalView,
  CapabilitiesView,
  ClaimView,
  CollectionView,
  Intervention,
  InterventionInput,
  MeView,
  NodeList,
  NodeView,
  OutlineSubject,
  PlanSubject,
  PlanPerspective,
  PlanQuestion,
  ReportJson,
  RunActivityView,
  RunEventData,
  RunList,
  RunVerification,
  RunView,
  SourceView,
  GateName,
  RunStatus,
  RunOptionsInput,
} from '@dossier/contracts';

export interface AuditEntry {
  seq: number;
  kind: string;
  actor: string;
  payload: unknown;
  createdAt: string;
  prevHash: string;
  hash: string;
}

export type AuditVerification = { ok: true; rows: number } | { ok: false; rows: number; firstBadSeq: number; reason: string };

export interface AuditLogView {
  events: AuditEntry[];
  verification: AuditVerification;
}

export interface UploadResult {
  collectionId: string;
  ingested: number;
  updated: number;
  unchanged: number;
  duplicates: number;
  failed: { path: string; code: string; reason: string }[];
}
