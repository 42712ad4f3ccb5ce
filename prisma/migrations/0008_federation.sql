-- Federation: clients that authenticate with signed assertions (private_key_jwt), the partners' authorization
-- servers the operator trusts, explicit links from their subjects to local users, and the identifiers (jti) of
-- assertions already used, kept until they expire so that any instance catches a replay.

ALTER TABLE "clients" ADD COLUMN "jwks" TEXT;
ALTER TABLE "clients" ADD COLUMN "jwks_uri" TEXT;

CREATE TABLE "trusted_issuers" (
    "issuer" TEXT NOT NULL PRIMARY KEY,
    "jwks" TEXT,
    "jwks_uri" TEXT,
    "subject_mapping" TEXT NOT NULL,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "trusted_issuer_clients" (
    "issuer" TEXT NOT NULL REFERENCES "trusted_issuers" ("issuer") ON DELETE CASCADE ON UPDATE CASCADE,
    "client_id" TEXT NOT NULL REFERENCES "clients" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    PRIMARY KEY ("issuer", "client_id")
);
CREATE INDEX "trusted_issuer_clients_client_id_idx" ON "trusted_issuer_clients" ("client_id");

CREATE TABLE "federated_subjects" (
    "issuer" TEXT NOT NULL REFERENCES "trusted_issuers" ("issuer") ON DELETE CASCADE ON UPDATE CASCADE,
    "subject" TEXT NOT NULL,
    "user_id" TEXT NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY ("issuer", "subject")
);
CREATE INDEX "federated_subjects_user_id_idx" ON "federated_subjects" ("user_id");

CREATE TABLE "used_assertions" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "expires_at" {{timestamp}} NOT NULL
);
CREATE INDEX "used_assertions_expires_at_idx" ON "used_assertions" ("expires_at");
