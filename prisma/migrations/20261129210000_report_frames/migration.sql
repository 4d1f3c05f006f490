-- CreateTable
CREATE TABLE "report_frames" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "revision" INTEGER NOT NULL,
    "introduction" JSONB NOT NULL,
    "conclusion" JSONB NOT NULL,

    CONSTRAINT "report_frames_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "report_frames_tenant_id_run_id_idx" ON "report_frames"("tenant_id", "run_id");

-- CreateIndex
CREATE UNIQUE INDEX "report_frames_run_id_revision_key" ON "report_frames"("run_id", "revision");
