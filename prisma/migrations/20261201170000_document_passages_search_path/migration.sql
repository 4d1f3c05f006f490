-- The passage trigger's functions name their table and each other unqualified, so they resolved through the caller's
-- search_path. pg_restore (and pg_dump's scripts) run with an empty search_path: a data-only restore into a migrated
-- database failed at the first document ("function document_passages_build(...) does not exist"). Each function now
-- carries the schema it was created in (the one this migration runs in), whoever calls it.
ALTER FUNCTION "document_passages_build"(UUID, UUID, UUID, TEXT, TEXT) SET search_path FROM CURRENT;
ALTER FUNCTION "document_passages_refresh"() SET search_path FROM CURRENT;
