-- A run's host (docs/decisions/0075): NULL = the deployment's workers and conductor; otherwise the id of the local
-- dossier process that started or resumed it, the only one that advances it. The model endpoint it ran against
-- (0076): base URL (no credentials) and model name, never the key.
ALTER TABLE "research_runs" ADD COLUMN "hosted_by" TEXT;
ALTER TABLE "research_runs" ADD COLUMN "model_endpoint" JSONB;
