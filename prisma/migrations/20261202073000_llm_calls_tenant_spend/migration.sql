-- A tenant's model spend this UTC day and month (issue 30: spend limits, /v1/me) is summed over its recent llm_calls
-- at every run start: by tenant and time, not by scanning every call the tenant ever made.
CREATE INDEX "llm_calls_tenant_id_created_at_idx" ON "llm_calls"("tenant_id", "created_at");
