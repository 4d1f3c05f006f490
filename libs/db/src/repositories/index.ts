import { RecordingRepository } from '../recordings/recording-repository';
import { ApiKeyRepository } from './api-key.repository';
import { ApprovalRepository } from './approval.repository';
import { AuditRepository } from './audit.repository';
import { CheckpointRepository } from './checkpoint.repository';
import { ExecutionRepository } from './execution.repository';
import { InterventionRepository } from './intervention.repository';
import { OutboxRepository } from './outbox.repository';
import { ReportArtifactRepository } from './report-artifact.repository';
import { ReportShareRepository } from './report-share.repository';
import { RunEventRepository } from './run-event.repository';
import { ResearchRepository } from './research.repository';
import { RunRepository } from './run.repository';
import { StepCommitRepository } from './step-commit.repository';
import { TenantRepository } from './tenant.repository';

export * from './api-key.repository';
export * from './approval.repository';
export * from './audit.repository';
export * from './checkpoint.repository';
export * from './execution.repository';
export * from './intervention.repository';
export * from './outbox.repository';
export * from './report-artifact.repository';
export * from './report-share.repository';
export * from './run-event.repository';
export * from './research.repository';
export * from './run.repository';
export * from './run-lock';
export * from './step-commit.repository';
export * from './tenant.repository';

export const REPOSITORIES = [
  ApiKeyRepository,
  ApprovalRepository,
  AuditRepository,
  CheckpointRepository,
  ExecutionRepository,
  InterventionRepository,
  OutboxRepository,
  RecordingRepository,
  ReportArtifactRepository,
  ReportShareRepository,
  RunEventRepository,
  ResearchRepository,
  RunRepository,
  StepCommitRepository,
  TenantRepository,
];
