-- ID tokens in the algorithm a client registered (OpenID Connect Registration id_token_signed_response_alg; NULL means
-- the server's default, ID_TOKEN_SIGNING_ALG), and PS256 keys besides RS256 and ES256. A CHECK constraint cannot be
-- changed in place on SQLite, so the signing key table is rebuilt the same way on both databases.

ALTER TABLE "clients" ADD COLUMN "id_token_signed_response_alg" TEXT;

CREATE TABLE "signing_keys_new" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "algorithm" TEXT NOT NULL CHECK ("algorithm" IN ('RS256', 'ES256', 'PS256')),
    "public_jwk" TEXT NOT NULL,
    "private_key_encrypted" TEXT NOT NULL,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "superseded_at" {{timestamp}},
    "retired_at" {{timestamp}}
);
INSERT INTO "signing_keys_new" ("id", "algorithm", "public_jwk", "private_key_encrypted", "created_at", "superseded_at", "retired_at")
    SELECT "id", "algorithm", "public_jwk", "private_key_encrypted", "created_at", "superseded_at", "retired_at" FROM "signing_keys";
DROP TABLE "signing_keys";
ALTER TABLE "signing_keys_new" RENAME TO "signing_keys";
