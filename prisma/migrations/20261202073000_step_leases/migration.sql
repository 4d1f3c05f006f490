-- Step ownership by a lease (docs/decisions/0070): the process running a step's current attempt, and until when it
-- holds the step without renewing. The attempt counter (attempts) is the lease's generation: only the current
-- attempt may complete the step.
ALTER TABLE "node_executions" ADD COLUMN "lease_owner" TEXT, ADD COLUMN "lease_expires_at" TIMESTAMPTZ(3);
