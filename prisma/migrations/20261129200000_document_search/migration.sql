-- Corpus documents: full-text search, identity by path, and the file facts ingestion reports.

-- Identity of a document is its path inside the collection, so re-ingesting a folder updates rows in
-- place instead of piling up versions. The existing unique (collection_id, content_hash) stays: a file
-- whose extracted text equals another file's text in the same collection is not stored twice; ingestion
-- reports it as a duplicate of the stored path (see libs/sources/src/ingest/plan-batch.ts).
CREATE UNIQUE INDEX "documents_collection_id_path_key" ON "documents"("collection_id", "path");

-- Size of the file on disk (bytes) and its modification time when it was last ingested.
ALTER TABLE "documents" ADD COLUMN "byte_size" INTEGER;
ALTER TABLE "documents" ADD COLUMN "modified_at" TIMESTAMPTZ(3);
-- When the row's text last changed (ingested_at stays the first ingestion).
ALTER TABLE "documents" ADD COLUMN "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Title weighs more than body. Only the first 400,000 characters are indexed: a tsvector is capped at
-- 1 MB and a huge document would otherwise fail to insert at all.
ALTER TABLE "documents" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english', coalesce("title", '')), 'A') ||
  setweight(to_tsvector('english', left("text", 400000)), 'B')
) STORED;

CREATE INDEX "documents_search_vector_idx" ON "documents" USING GIN ("search_vector");
