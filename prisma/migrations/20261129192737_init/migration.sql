-- CreateTable
CREATE TABLE "tenants" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "policy" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "principals" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'user',
    "role" TEXT NOT NULL DEFAULT 'member',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "principals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "principal_id" UUID NOT NULL,
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "research_runs" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "question" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "options" JSONB NOT NULL,
    "workflow_version" INTEGER NOT NULL,
    "current_node" TEXT,
    "awaiting_gate" TEXT,
    "budget_exhausted" TEXT,
    "stop_reason" TEXT,
    "failure_reason" TEXT,
    "idempotency_key" TEXT,
    "deadline_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "research_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "node_executions" (
    "step_key" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "node" TEXT NOT NULL,
    "iteration" INTEGER NOT NULL,
    "shard" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "result" JSONB,
    "error" TEXT,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "node_executions_pkey" PRIMARY KEY ("step_key")
);

-- CreateTable
CREATE TABLE "workflow_checkpoints" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "step_key" TEXT NOT NULL,
    "state" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workflow_checkpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "step_key" TEXT NOT NULL,
    "cause_key" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "iteration" INTEGER NOT NULL,
    "shard" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "run_events" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "run_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approval_decisions" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "gate" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "feedback" TEXT,
    "decided_by" TEXT,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "approval_decisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "created_at" TEXT NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("run_id","seq")
);

-- CreateTable
CREATE TABLE "llm_calls" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "step_key" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "engine" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "tokens_in" INTEGER NOT NULL,
    "tokens_out" INTEGER NOT NULL,
    "cost_usd" DOUBLE PRECISION NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "llm_calls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "collections" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "documents" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "collection_id" UUID NOT NULL,
    "path" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "media_type" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "source_snapshots" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "media_type" TEXT NOT NULL,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "source_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "research_objectives" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "statement" TEXT NOT NULL,
    "included_topics" JSONB NOT NULL,
    "excluded_topics" JSONB NOT NULL,
    "time_frame" TEXT,
    "risk_level" TEXT NOT NULL,

    CONSTRAINT "research_objectives_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "perspectives" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "revision" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "affiliation" TEXT NOT NULL,
    "focus" TEXT NOT NULL,
    "budget_weight" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "perspectives_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "research_questions" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "parent_id" UUID,
    "perspective_id" UUID,
    "iteration" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "priority" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',

    CONSTRAINT "research_questions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "search_plans" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "question_id" UUID NOT NULL,
    "iteration" INTEGER NOT NULL,
    "shard" INTEGER NOT NULL,
    "query" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "freshness" TEXT,

    CONSTRAINT "search_plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "source_records" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "search_plan_id" UUID NOT NULL,
    "iteration" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "canonical_url" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "snippet" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "rank" INTEGER NOT NULL,
    "authority" TEXT NOT NULL DEFAULT 'unknown',
    "cluster_key" TEXT,
    "selected" BOOLEAN NOT NULL DEFAULT false,
    "extract_shard" INTEGER,
    "snapshot_id" UUID,

    CONSTRAINT "source_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evidence_fragments" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "snapshot_id" UUID NOT NULL,
    "question_id" UUID,
    "iteration" INTEGER NOT NULL,
    "excerpt" TEXT NOT NULL,
    "start" INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    "statement" TEXT NOT NULL,
    "confidence" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "evidence_fragments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claims" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "iteration" INTEGER NOT NULL,
    "statement" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "status" TEXT NOT NULL,

    CONSTRAINT "claims_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "claim_evidence" (
    "claim_id" UUID NOT NULL,
    "evidence_id" UUID NOT NULL,

    CONSTRAINT "claim_evidence_pkey" PRIMARY KEY ("claim_id","evidence_id")
);

-- CreateTable
CREATE TABLE "contradictions" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "claim_a_id" UUID NOT NULL,
    "claim_b_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "note" TEXT NOT NULL,

    CONSTRAINT "contradictions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "question_coverage" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "question_id" UUID NOT NULL,
    "iteration" INTEGER NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "information_gain" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "question_coverage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outline_sections" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "revision" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "claim_ids" JSONB NOT NULL,

    CONSTRAINT "outline_sections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "section_drafts" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "section_id" UUID NOT NULL,
    "round" INTEGER NOT NULL,
    "paragraphs" JSONB NOT NULL,

    CONSTRAINT "section_drafts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification_findings" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "section_id" UUID NOT NULL,
    "round" INTEGER NOT NULL,
    "paragraph" INTEGER NOT NULL,
    "sentence" INTEGER NOT NULL,
    "verdict" TEXT NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "note" TEXT NOT NULL,

    CONSTRAINT "verification_findings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "report_artifacts" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "format" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "report_artifacts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tenants_name_key" ON "tenants"("name");

-- CreateIndex
CREATE UNIQUE INDEX "principals_tenant_id_name_key" ON "principals"("tenant_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys"("prefix");

-- CreateIndex
CREATE INDEX "api_keys_tenant_id_idx" ON "api_keys"("tenant_id");

-- CreateIndex
CREATE INDEX "research_runs_tenant_id_status_created_at_idx" ON "research_runs"("tenant_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "research_runs_status_deadline_at_idx" ON "research_runs"("status", "deadline_at");

-- CreateIndex
CREATE UNIQUE INDEX "research_runs_tenant_id_idempotency_key_key" ON "research_runs"("tenant_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "node_executions_run_id_node_iteration_status_idx" ON "node_executions"("run_id", "node", "iteration", "status");

-- CreateIndex
CREATE INDEX "node_executions_tenant_id_run_id_idx" ON "node_executions"("tenant_id", "run_id");

-- CreateIndex
CREATE INDEX "workflow_checkpoints_run_id_id_idx" ON "workflow_checkpoints"("run_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_step_key_key" ON "outbox"("step_key");

-- CreateIndex
CREATE INDEX "outbox_status_created_at_idx" ON "outbox"("status", "created_at");

-- CreateIndex
CREATE INDEX "outbox_run_id_node_iteration_idx" ON "outbox"("run_id", "node", "iteration");

-- CreateIndex
CREATE INDEX "outbox_cause_key_idx" ON "outbox"("cause_key");

-- CreateIndex
CREATE INDEX "run_events_tenant_id_run_id_idx" ON "run_events"("tenant_id", "run_id");

-- CreateIndex
CREATE UNIQUE INDEX "run_events_run_id_seq_key" ON "run_events"("run_id", "seq");

-- CreateIndex
CREATE INDEX "approval_decisions_tenant_id_run_id_idx" ON "approval_decisions"("tenant_id", "run_id");

-- CreateIndex
CREATE INDEX "approval_decisions_status_expires_at_idx" ON "approval_decisions"("status", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "approval_decisions_run_id_gate_revision_key" ON "approval_decisions"("run_id", "gate", "revision");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_run_id_idx" ON "audit_events"("tenant_id", "run_id");

-- CreateIndex
CREATE INDEX "llm_calls_tenant_id_run_id_idx" ON "llm_calls"("tenant_id", "run_id");

-- CreateIndex
CREATE INDEX "llm_calls_step_key_idx" ON "llm_calls"("step_key");

-- CreateIndex
CREATE UNIQUE INDEX "collections_tenant_id_name_key" ON "collections"("tenant_id", "name");

-- CreateIndex
CREATE INDEX "documents_tenant_id_collection_id_idx" ON "documents"("tenant_id", "collection_id");

-- CreateIndex
CREATE UNIQUE INDEX "documents_collection_id_content_hash_key" ON "documents"("collection_id", "content_hash");

-- CreateIndex
CREATE INDEX "source_snapshots_tenant_id_url_idx" ON "source_snapshots"("tenant_id", "url");

-- CreateIndex
CREATE UNIQUE INDEX "source_snapshots_tenant_id_content_hash_key" ON "source_snapshots"("tenant_id", "content_hash");

-- CreateIndex
CREATE UNIQUE INDEX "research_objectives_run_id_key" ON "research_objectives"("run_id");

-- CreateIndex
CREATE INDEX "research_objectives_tenant_id_idx" ON "research_objectives"("tenant_id");

-- CreateIndex
CREATE INDEX "perspectives_tenant_id_run_id_revision_idx" ON "perspectives"("tenant_id", "run_id", "revision");

-- CreateIndex
CREATE INDEX "research_questions_tenant_id_run_id_status_idx" ON "research_questions"("tenant_id", "run_id", "status");

-- CreateIndex
CREATE INDEX "search_plans_tenant_id_run_id_idx" ON "search_plans"("tenant_id", "run_id");

-- CreateIndex
CREATE UNIQUE INDEX "search_plans_run_id_iteration_shard_key" ON "search_plans"("run_id", "iteration", "shard");

-- CreateIndex
CREATE INDEX "source_records_tenant_id_run_id_iteration_idx" ON "source_records"("tenant_id", "run_id", "iteration");

-- CreateIndex
CREATE INDEX "source_records_run_id_canonical_url_idx" ON "source_records"("run_id", "canonical_url");

-- CreateIndex
CREATE INDEX "evidence_fragments_tenant_id_run_id_idx" ON "evidence_fragments"("tenant_id", "run_id");

-- CreateIndex
CREATE UNIQUE INDEX "evidence_fragments_run_id_snapshot_id_start_end_key" ON "evidence_fragments"("run_id", "snapshot_id", "start", "end");

-- CreateIndex
CREATE INDEX "claims_tenant_id_run_id_idx" ON "claims"("tenant_id", "run_id");

-- CreateIndex
CREATE INDEX "claim_evidence_evidence_id_idx" ON "claim_evidence"("evidence_id");

-- CreateIndex
CREATE INDEX "contradictions_tenant_id_run_id_idx" ON "contradictions"("tenant_id", "run_id");

-- CreateIndex
CREATE UNIQUE INDEX "contradictions_run_id_claim_a_id_claim_b_id_key" ON "contradictions"("run_id", "claim_a_id", "claim_b_id");

-- CreateIndex
CREATE INDEX "question_coverage_tenant_id_run_id_idx" ON "question_coverage"("tenant_id", "run_id");

-- CreateIndex
CREATE UNIQUE INDEX "question_coverage_run_id_question_id_iteration_key" ON "question_coverage"("run_id", "question_id", "iteration");

-- CreateIndex
CREATE INDEX "outline_sections_tenant_id_run_id_idx" ON "outline_sections"("tenant_id", "run_id");

-- CreateIndex
CREATE UNIQUE INDEX "outline_sections_run_id_revision_position_key" ON "outline_sections"("run_id", "revision", "position");

-- CreateIndex
CREATE INDEX "section_drafts_tenant_id_run_id_idx" ON "section_drafts"("tenant_id", "run_id");

-- CreateIndex
CREATE UNIQUE INDEX "section_drafts_section_id_round_key" ON "section_drafts"("section_id", "round");

-- CreateIndex
CREATE INDEX "verification_findings_tenant_id_run_id_idx" ON "verification_findings"("tenant_id", "run_id");

-- CreateIndex
CREATE UNIQUE INDEX "verification_findings_section_id_round_paragraph_sentence_key" ON "verification_findings"("section_id", "round", "paragraph", "sentence");

-- CreateIndex
CREATE INDEX "report_artifacts_tenant_id_idx" ON "report_artifacts"("tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "report_artifacts_run_id_format_key" ON "report_artifacts"("run_id", "format");

-- AddForeignKey
ALTER TABLE "principals" ADD CONSTRAINT "principals_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_principal_id_fkey" FOREIGN KEY ("principal_id") REFERENCES "principals"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "research_runs" ADD CONSTRAINT "research_runs_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_evidence" ADD CONSTRAINT "claim_evidence_claim_id_fkey" FOREIGN KEY ("claim_id") REFERENCES "claims"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "claim_evidence" ADD CONSTRAINT "claim_evidence_evidence_id_fkey" FOREIGN KEY ("evidence_id") REFERENCES "evidence_fragments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
