-- An answered model request keeps its answer and a hash of the request (docs/decisions/0018): a step that runs
-- again after a crash reuses what it already paid for instead of asking the model again.
ALTER TABLE "llm_calls" ADD COLUMN "request_hash" TEXT;
ALTER TABLE "llm_calls" ADD COLUMN "answer" JSONB;

CREATE INDEX "llm_calls_run_id_step_key_request_hash_idx" ON "llm_calls"("run_id", "step_key", "request_hash");
