-- Sender-constrained tokens (RFC 9449 DPoP) and pushed authorization requests (RFC 9126). Clients may require
-- either; codes and public clients' refresh tokens remember the thumbprint of the key they are bound to. Pushed
-- requests keep only the hash of their request_uri. DPoP proofs' jti values share used_assertions.

ALTER TABLE "clients" ADD COLUMN "dpop_bound_access_tokens" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "clients" ADD COLUMN "require_pushed_authorization_requests" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "authorization_codes" ADD COLUMN "dpop_jkt" TEXT;
ALTER TABLE "refresh_tokens" ADD COLUMN "dpop_jkt" TEXT;

CREATE TABLE "pushed_authorization_requests" (
    "id_hash" TEXT NOT NULL PRIMARY KEY,
    "client_id" TEXT NOT NULL REFERENCES "clients" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "parameters" TEXT NOT NULL,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" {{timestamp}} NOT NULL,
    "started_at" {{timestamp}},
    "used_at" {{timestamp}}
);
CREATE INDEX "pushed_authorization_requests_expires_at_idx" ON "pushed_authorization_requests" ("expires_at");
