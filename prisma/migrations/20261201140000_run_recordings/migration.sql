-- Recordings of the external answers a run consumed (issue 16, decision 0030): answers stored once per tenant by
-- content hash, and one row per call of a run's step naming the answer it got.
CREATE TABLE "recorded_answers" (
    "tenant_id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "bytes" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "recorded_answers_pkey" PRIMARY KEY ("tenant_id", "hash")
);

CREATE TABLE "run_recordings" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "step" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "call" TEXT NOT NULL,
    "answer_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "run_recordings_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "run_recordings_run_id_step_kind_request_hash_key" ON "run_recordings"("run_id", "step", "kind", "request_hash");
CREATE INDEX "run_recordings_tenant_id_kind_request_hash_created_at_idx" ON "run_recordings"("tenant_id", "kind", "request_hash", "created_at");
CREATE INDEX "run_recordings_tenant_id_answer_hash_idx" ON "run_recordings"("tenant_id", "answer_hash");
CREATE INDEX "run_recordings_expires_at_idx" ON "run_recordings"("expires_at");
