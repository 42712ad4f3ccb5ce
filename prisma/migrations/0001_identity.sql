-- Identity model: companies, users, clients and their secrets, scopes, consents, codes, tokens, sessions,
-- signing keys, tickets and the audit trail. Mirrors prisma/{{provider}}/schema.prisma.

CREATE TABLE "companies" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL CHECK ("kind" IN ('eye_care_professional', 'supplier', 'operator')),
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "users" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "company_id" TEXT NOT NULL REFERENCES "companies" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    "email" TEXT NOT NULL,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "given_name" TEXT NOT NULL,
    "family_name" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'user',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "password_hash" TEXT NOT NULL,
    "preferred_language" TEXT,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" {{timestamp}} NOT NULL
);
CREATE UNIQUE INDEX "users_email_key" ON "users" ("email");
CREATE INDEX "users_company_id_idx" ON "users" ("company_id");

CREATE TABLE "clients" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL CHECK ("kind" IN ('browser', 'native', 'web', 'backend')),
    "names" TEXT NOT NULL DEFAULT '{}',
    "descriptions" TEXT NOT NULL DEFAULT '{}',
    "grant_types" TEXT NOT NULL DEFAULT '[]',
    "response_types" TEXT NOT NULL DEFAULT '[]',
    "redirect_uris" TEXT NOT NULL DEFAULT '[]',
    "cors_origins" TEXT NOT NULL DEFAULT '[]',
    "post_logout_redirect_uris" TEXT NOT NULL DEFAULT '[]',
    "allowed_scopes" TEXT NOT NULL DEFAULT '[]',
    "token_endpoint_auth_method" TEXT NOT NULL,
    "offline_access" BOOLEAN NOT NULL DEFAULT false,
    "refresh_token_policy" TEXT NOT NULL DEFAULT 'reuse' CHECK ("refresh_token_policy" IN ('reuse', 'rotate')),
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" {{timestamp}} NOT NULL
);

CREATE TABLE "client_secrets" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "client_id" TEXT NOT NULL REFERENCES "clients" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "secret_hash" TEXT NOT NULL,
    "description" TEXT,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" {{timestamp}},
    "disabled_at" {{timestamp}}
);
CREATE UNIQUE INDEX "client_secrets_secret_hash_key" ON "client_secrets" ("secret_hash");
CREATE INDEX "client_secrets_client_id_idx" ON "client_secrets" ("client_id");

CREATE TABLE "scopes" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL CHECK ("kind" IN ('identity', 'api')),
    "display_names" TEXT NOT NULL DEFAULT '{}',
    "descriptions" TEXT NOT NULL DEFAULT '{}',
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "consents" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "client_id" TEXT NOT NULL REFERENCES "clients" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "scopes" TEXT NOT NULL DEFAULT '[]',
    "granted_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" {{timestamp}},
    "revoked_at" {{timestamp}}
);
CREATE UNIQUE INDEX "consents_user_id_client_id_key" ON "consents" ("user_id", "client_id");
CREATE INDEX "consents_client_id_idx" ON "consents" ("client_id");

CREATE TABLE "authorization_codes" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "code_hash" TEXT NOT NULL,
    "client_id" TEXT NOT NULL REFERENCES "clients" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "user_id" TEXT NOT NULL,
    "consent_id" TEXT,
    "login_session_id" TEXT,
    "redirect_uri" TEXT NOT NULL,
    "scopes" TEXT NOT NULL DEFAULT '[]',
    "nonce" TEXT,
    "code_challenge" TEXT,
    "code_challenge_method" TEXT,
    "auth_time" {{timestamp}} NOT NULL,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" {{timestamp}} NOT NULL,
    "consumed_at" {{timestamp}}
);
CREATE UNIQUE INDEX "authorization_codes_code_hash_key" ON "authorization_codes" ("code_hash");
CREATE INDEX "authorization_codes_client_id_idx" ON "authorization_codes" ("client_id");
CREATE INDEX "authorization_codes_user_id_idx" ON "authorization_codes" ("user_id");

CREATE TABLE "refresh_tokens" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "token_hash" TEXT NOT NULL,
    "family_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL REFERENCES "clients" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "user_id" TEXT NOT NULL,
    "consent_id" TEXT REFERENCES "consents" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    "authorization_code_id" TEXT REFERENCES "authorization_codes" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    "login_session_id" TEXT,
    "scopes" TEXT NOT NULL DEFAULT '[]',
    "auth_time" {{timestamp}} NOT NULL,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" {{timestamp}},
    "expires_at" {{timestamp}} NOT NULL,
    "rotated_at" {{timestamp}},
    "revoked_at" {{timestamp}}
);
CREATE UNIQUE INDEX "refresh_tokens_token_hash_key" ON "refresh_tokens" ("token_hash");
CREATE INDEX "refresh_tokens_client_id_idx" ON "refresh_tokens" ("client_id");
CREATE INDEX "refresh_tokens_user_id_idx" ON "refresh_tokens" ("user_id");
CREATE INDEX "refresh_tokens_family_id_idx" ON "refresh_tokens" ("family_id");
CREATE INDEX "refresh_tokens_consent_id_idx" ON "refresh_tokens" ("consent_id");

CREATE TABLE "login_sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "token_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "auth_time" {{timestamp}} NOT NULL,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" {{timestamp}} NOT NULL,
    "ended_at" {{timestamp}},
    "ip_address" TEXT,
    "user_agent" TEXT
);
CREATE UNIQUE INDEX "login_sessions_token_hash_key" ON "login_sessions" ("token_hash");
CREATE INDEX "login_sessions_user_id_idx" ON "login_sessions" ("user_id");

CREATE TABLE "signing_keys" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "algorithm" TEXT NOT NULL CHECK ("algorithm" IN ('RS256', 'ES256')),
    "public_jwk" TEXT NOT NULL,
    "private_key_encrypted" TEXT NOT NULL,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "superseded_at" {{timestamp}},
    "retired_at" {{timestamp}}
);

CREATE TABLE "tickets" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ticket_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" {{timestamp}} NOT NULL,
    "revoked_at" {{timestamp}}
);
CREATE UNIQUE INDEX "tickets_ticket_hash_key" ON "tickets" ("ticket_hash");
CREATE INDEX "tickets_user_id_idx" ON "tickets" ("user_id");

CREATE TABLE "audit_events" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "occurred_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "type" TEXT NOT NULL,
    "user_id" TEXT,
    "client_id" TEXT,
    "ip_address" TEXT,
    "details" TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX "audit_events_occurred_at_idx" ON "audit_events" ("occurred_at");
CREATE INDEX "audit_events_type_idx" ON "audit_events" ("type");
CREATE INDEX "audit_events_user_id_idx" ON "audit_events" ("user_id");
CREATE INDEX "audit_events_client_id_idx" ON "audit_events" ("client_id");
