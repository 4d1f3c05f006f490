-- Interventions are applied in the order they were queued. created_at has millisecond precision, so two posted
-- in the same millisecond tied and were ordered by their random id: the second add_question could be applied
-- (and audited) before the first. A sequence gives the queue its exact order (decision 0010 addendum).
-- Rows queued before this migration are numbered in their old order.
ALTER TABLE "run_interventions" ADD COLUMN "seq" SERIAL;
WITH ordered AS (
  SELECT "id", ROW_NUMBER() OVER (ORDER BY "created_at", "id") AS n FROM "run_interventions"
)
UPDATE "run_interventions" r SET "seq" = ordered.n FROM ordered WHERE ordered."id" = r."id";
SELECT setval(pg_get_serial_sequence('"run_interventions"', 'seq'), GREATEST((SELECT MAX("seq") FROM "run_interventions"), 1));
CREATE INDEX "run_interventions_tenant_id_run_id_seq_idx" ON "run_interventions"("tenant_id", "run_id", "seq");
