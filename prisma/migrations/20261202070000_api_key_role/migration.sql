-- A key carries its own role (issue 30): `create-key --role viewer` for a principal that already existed as a
-- member used to give a key that acted as a member. Existing keys keep the role they acted with (their principal's).
ALTER TABLE "api_keys" ADD COLUMN "role" TEXT;
UPDATE "api_keys" k SET "role" = p."role" FROM "principals" p WHERE p."id" = k."principal_id";
ALTER TABLE "api_keys" ALTER COLUMN "role" SET NOT NULL;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_role_check" CHECK ("role" IN ('admin', 'member', 'viewer'));
