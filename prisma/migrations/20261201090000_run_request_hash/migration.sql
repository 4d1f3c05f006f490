-- The hash of the canonical request body that created a run with an Idempotency-Key: a later request with the
-- same key and a different body is refused (409) instead of silently answered with the first run.
ALTER TABLE "research_runs" ADD COLUMN "request_hash" TEXT;
