-- The last run_events.seq of each run, kept on the run row (docs/decisions/0026): appending events is one
-- UPDATE … RETURNING that both serializes appenders (the row lock) and hands out the numbers, instead of
-- a lock, a read of the last seq and an insert.
ALTER TABLE "research_runs" ADD COLUMN "event_seq" INTEGER NOT NULL DEFAULT 0;
UPDATE "research_runs" r SET "event_seq" = e.last FROM (SELECT "run_id", MAX("seq") AS last FROM "run_events" GROUP BY "run_id") e
WHERE e."run_id" = r."id";
