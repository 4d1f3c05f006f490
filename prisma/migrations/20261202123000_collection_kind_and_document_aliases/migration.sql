-- Documentation folders (docs/decisions/0055, 0056): the same page in several formats is one document, whose other
-- files are its aliases (collection paths); a collection has a kind (documentation, official, academic, ...) that
-- gives every one of its documents the same authority, whatever their format. NULL: not known.
ALTER TABLE "collections" ADD COLUMN "kind" TEXT;
ALTER TABLE "documents" ADD COLUMN "aliases" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
