-- Sign-in notices (issue 50): a sign-in from a browser new to the account mails its owner, with a one-time "not me"
-- link (only its hash is kept) that ends everything the account's sign-ins left and starts a password reset. Each
-- company switches the notices; null keeps its kind's default (on for the operator, off for the others).

ALTER TABLE "companies" ADD COLUMN "sign_in_notices" BOOLEAN;

CREATE TABLE "sign_in_notices" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "token_hash" TEXT NOT NULL,
    "sent_to" TEXT NOT NULL,
    "signed_in_at" {{timestamp}} NOT NULL,
    "ip_address" TEXT,
    "user_agent" TEXT,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" {{timestamp}} NOT NULL,
    "used_at" {{timestamp}}
);
CREATE UNIQUE INDEX "sign_in_notices_token_hash_key" ON "sign_in_notices" ("token_hash");
CREATE INDEX "sign_in_notices_user_id_idx" ON "sign_in_notices" ("user_id");
CREATE INDEX "sign_in_notices_expires_at_idx" ON "sign_in_notices" ("expires_at");
