-- Security review: consent prompts bound to the authorization request that opened them, and clients registered as
-- resource servers (they may introspect other clients' access tokens).

ALTER TABLE "clients" ADD COLUMN "resource_server" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "authorization_interactions" (
    "id_hash" TEXT NOT NULL PRIMARY KEY,
    "login_session_id" TEXT NOT NULL REFERENCES "login_sessions" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "client_id" TEXT NOT NULL REFERENCES "clients" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "parameters" TEXT NOT NULL,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" {{timestamp}} NOT NULL
);

CREATE INDEX "authorization_interactions_expires_at_idx" ON "authorization_interactions" ("expires_at");
