-- The embeddings endpoint failed mid-run and the run went on with the local embedder (docs/decisions/0043).
ALTER TABLE "research_runs" ADD COLUMN "embeddings_fallback" JSONB;
