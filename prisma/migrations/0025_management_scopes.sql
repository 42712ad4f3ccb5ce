-- The management API's scopes (issue 48) are scopes of their own kind, 'manage', beside 'identity' and 'api'. A CHECK
-- constraint cannot be changed in place on SQLite; nothing references the scopes table, so it is rebuilt, the same
-- way on both databases.

CREATE TABLE "scopes_new" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL CHECK ("kind" IN ('identity', 'api', 'manage')),
    "display_names" TEXT NOT NULL DEFAULT '{}',
    "descriptions" TEXT NOT NULL DEFAULT '{}',
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "scopes_new" ("name", "kind", "display_names", "descriptions", "created_at")
    SELECT "name", "kind", "display_names", "descriptions", "created_at" FROM "scopes";
DROP TABLE "scopes";
ALTER TABLE "scopes_new" RENAME TO "scopes";
