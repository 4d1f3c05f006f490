-- Corpus search at passage level (docs/decisions/0038). A document is ranked by its best passages, not by its
-- whole text: in a manual of hundreds of pages, a long page that names every word of a question somewhere
-- outranked the page whose one paragraph answers it, and more so as the corpus grew.
--
-- A passage is a paragraph (text between blank lines) of the indexed part of the document (the first 400,000
-- characters, as documents.search_vector), with the paragraph before it as its label when that one is short (the
-- term line "--soft" above its description, a heading above its first paragraph), and the document's title. Passages
-- are written by a trigger on documents, so every way a document is stored or changed keeps them current, and
-- backfilled here for documents stored before.
CREATE TABLE "document_passages" (
  "document_id" UUID NOT NULL,
  "position" INTEGER NOT NULL,
  "tenant_id" UUID NOT NULL,
  "collection_id" UUID NOT NULL,
  -- The paragraph (capped), for snippets.
  "body" TEXT NOT NULL,
  -- Title weight A, label C, paragraph B.
  "search_vector" tsvector NOT NULL,
  CONSTRAINT "document_passages_pkey" PRIMARY KEY ("document_id", "position"),
  CONSTRAINT "document_passages_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "document_passages_search_vector_idx" ON "document_passages" USING GIN ("search_vector");
CREATE INDEX "document_passages_tenant_id_collection_id_idx" ON "document_passages" ("tenant_id", "collection_id");

-- Labels are paragraphs of at most 200 characters; a passage's body is capped at 4,000 characters for snippets, its
-- vector at 20,000 (a tsvector holds at most 1 MB).
CREATE FUNCTION "document_passages_build"(doc_id UUID, doc_tenant UUID, doc_collection UUID, doc_title TEXT, doc_text TEXT)
RETURNS void LANGUAGE sql AS $$
  DELETE FROM "document_passages" WHERE "document_id" = doc_id;
  INSERT INTO "document_passages" ("document_id", "position", "tenant_id", "collection_id", "body", "search_vector")
  SELECT doc_id, p.n, doc_tenant, doc_collection, left(btrim(p.body), 4000),
         setweight(to_tsvector('english', coalesce(doc_title, '')), 'A') ||
         setweight(to_tsvector('english', CASE WHEN length(btrim(p.prev)) <= 200 THEN btrim(p.prev) ELSE '' END), 'C') ||
         setweight(to_tsvector('english', left(p.body, 20000)), 'B')
  FROM (
    SELECT t.n::int AS n, t.body, lag(t.body) OVER (ORDER BY t.n) AS prev
    FROM regexp_split_to_table(left(doc_text, 400000), E'\\n[ \\t\\r]*\\n') WITH ORDINALITY AS t(body, n)
  ) p
  WHERE btrim(p.body) <> '';
$$;

CREATE FUNCTION "document_passages_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "document_passages_build"(NEW."id", NEW."tenant_id", NEW."collection_id", NEW."title", NEW."text");
  RETURN NEW;
END
$$;

CREATE TRIGGER "documents_passages" AFTER INSERT OR UPDATE OF "text", "title" ON "documents"
  FOR EACH ROW EXECUTE FUNCTION "document_passages_refresh"();

SELECT "document_passages_build"("id", "tenant_id", "collection_id", "title", "text") FROM "documents";
