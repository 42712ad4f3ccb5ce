-- People join companies by invitation (one pending link per email address, stored as its hash), and mail leaves
-- through an outbox written in the same transaction as the change that caused it. Users remember their last sign-in
-- for the company page.

ALTER TABLE "users" ADD COLUMN "last_sign_in_at" {{timestamp}};

CREATE TABLE "invitations" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "company_id" TEXT NOT NULL REFERENCES "companies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "role" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by_user_id" TEXT,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" {{timestamp}} NOT NULL,
    "accepted_at" {{timestamp}}
);
CREATE UNIQUE INDEX "invitations_email_key" ON "invitations" ("email");
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations" ("token_hash");
CREATE INDEX "invitations_company_id_idx" ON "invitations" ("company_id");

CREATE TABLE "outbox_messages" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "sealed_body" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" {{timestamp}} NOT NULL,
    "claimed_until" {{timestamp}},
    "claim_token" TEXT,
    "last_error" TEXT,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" {{timestamp}}
);
CREATE INDEX "outbox_messages_status_next_attempt_at_idx" ON "outbox_messages" ("status", "next_attempt_at");
CREATE INDEX "outbox_messages_claim_token_idx" ON "outbox_messages" ("claim_token");
CREATE INDEX "outbox_messages_recipient_idx" ON "outbox_messages" ("recipient");
