-- Read-only links to a run's report (issue 27; docs/decisions/0051). The token's secret is stored as its SHA-256 only;
-- the prefix finds the row. Deleting the run deletes its links.
CREATE TABLE "report_shares" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_by" TEXT,

    CONSTRAINT "report_shares_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "report_shares_expiry_check" CHECK ("expires_at" > "created_at")
);

CREATE UNIQUE INDEX "report_shares_prefix_key" ON "report_shares"("prefix");
CREATE INDEX "report_shares_tenant_id_run_id_created_at_idx" ON "report_shares"("tenant_id", "run_id", "created_at");

ALTER TABLE "report_shares" ADD CONSTRAINT "report_shares_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "research_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
