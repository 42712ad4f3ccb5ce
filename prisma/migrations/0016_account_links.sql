-- People manage their own passwords and email addresses through one-time links mailed to them (a password reset, the
-- confirmation of a new address): one link per user and purpose, stored as the SHA-256 of its token.

CREATE TABLE "account_links" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "purpose" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "new_email" TEXT,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" {{timestamp}} NOT NULL,
    "used_at" {{timestamp}}
);
CREATE UNIQUE INDEX "account_links_token_hash_key" ON "account_links" ("token_hash");
CREATE UNIQUE INDEX "account_links_user_id_purpose_key" ON "account_links" ("user_id", "purpose");
CREATE INDEX "account_links_expires_at_idx" ON "account_links" ("expires_at");
