-- One turn of an analyst's interview (issue 14, decision 0024): the analyst's question (also a research question, so
-- its evidence is linked to it like any other) and the expert's answer, sentences citing evidence fragment ids.
CREATE TABLE "interview_turns" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "perspective_id" UUID NOT NULL,
    "shard" INTEGER NOT NULL,
    "turn" INTEGER NOT NULL,
    "question_id" UUID NOT NULL,
    "question" TEXT NOT NULL,
    "answer" JSONB NOT NULL,
    "closed" BOOLEAN NOT NULL,

    CONSTRAINT "interview_turns_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "interview_turns_run_id_shard_turn_key" ON "interview_turns"("run_id", "shard", "turn");
CREATE INDEX "interview_turns_tenant_id_run_id_idx" ON "interview_turns"("tenant_id", "run_id");
