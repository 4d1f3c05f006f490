-- A run's place in the step queues (docs/decisions/0162): set when the run is created, read by every transition that
-- enqueues its steps. Null for the runs created before it: their creation time stands in.
ALTER TABLE "research_runs" ADD COLUMN "queue_at" TIMESTAMPTZ(3);
