-- Model output as untrusted input (decision 0019): what was mended, trimmed, dropped or given up, per request.
ALTER TABLE "llm_calls" ADD COLUMN "notes" JSONB;

-- Verification that bites (decision 0020): what the guard and the judge said about each sentence.
ALTER TABLE "verification_findings" ADD COLUMN "checks" JSONB;

-- Framing and the disagreements section are verified in the frame step, and stored with what was checked.
ALTER TABLE "report_frames" ADD COLUMN "disagreements" JSONB;
ALTER TABLE "report_frames" ADD COLUMN "verification" JSONB;
