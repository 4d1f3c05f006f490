-- Model output as untrusted input (decision 0019): what was mended, trimmed, dropped or given up, per request.
ALTER TABLE "llm_calls" ADD COLUMN "notes" JSONB;
