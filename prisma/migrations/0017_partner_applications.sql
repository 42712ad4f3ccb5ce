-- Software vendors register their own applications (the partner portal, RFC 7591/7592): a client has a status
-- (only approved clients exist for the protocol), the vendor that owns it, changes waiting for approval, the
-- operator's note, and the hash of its registration access token. Vendors get scopes they may ask for and initial
-- access tokens. Secrets remember when they were last used.

ALTER TABLE "companies" ADD COLUMN "partner_scopes" TEXT NOT NULL DEFAULT '[]';

ALTER TABLE "clients" ADD COLUMN "status" TEXT NOT NULL DEFAULT 'approved';
ALTER TABLE "clients" ADD COLUMN "owner_company_id" TEXT;
ALTER TABLE "clients" ADD COLUMN "pending_metadata" TEXT;
ALTER TABLE "clients" ADD COLUMN "review_note" TEXT;
ALTER TABLE "clients" ADD COLUMN "registration_token_hash" TEXT;
CREATE UNIQUE INDEX "clients_registration_token_hash_key" ON "clients" ("registration_token_hash");
CREATE INDEX "clients_owner_company_id_idx" ON "clients" ("owner_company_id");

ALTER TABLE "client_secrets" ADD COLUMN "last_used_at" {{timestamp}};
ALTER TABLE "client_secrets" ADD COLUMN "expiry_notice_sent_at" {{timestamp}};

CREATE TABLE "initial_access_tokens" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "company_id" TEXT NOT NULL REFERENCES "companies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "token_hash" TEXT NOT NULL,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" {{timestamp}} NOT NULL,
    "revoked_at" {{timestamp}}
);
CREATE UNIQUE INDEX "initial_access_tokens_token_hash_key" ON "initial_access_tokens" ("token_hash");
CREATE INDEX "initial_access_tokens_company_id_idx" ON "initial_access_tokens" ("company_id");
