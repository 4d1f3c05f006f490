-- CreateTable
CREATE TABLE "run_interventions" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "applied_iteration" INTEGER,
    "applied_at" TIMESTAMPTZ(3),

    CONSTRAINT "run_interventions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "run_interventions_tenant_id_run_id_status_idx" ON "run_interventions"("tenant_id", "run_id", "status");

-- AddForeignKey
ALTER TABLE "run_interventions" ADD CONSTRAINT "run_interventions_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "research_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "source_records" ADD COLUMN "excluded_by" UUID;
