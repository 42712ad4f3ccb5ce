-- A second factor: passkeys (WebAuthn), an authenticator app (TOTP, its secret sealed with SECRET_KEY) and one-time
-- recovery codes (hashed); WebAuthn challenges once used (their SHA-256, until they expire). Sessions, codes
-- and refresh tokens remember how the user signed in (RFC 8176 amr, a JSON array), for the acr and amr claims; a
-- company may require a second factor of everyone in it.

ALTER TABLE "companies" ADD COLUMN "require_second_factor" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "login_sessions" ADD COLUMN "amr" TEXT NOT NULL DEFAULT '["pwd"]';
ALTER TABLE "authorization_codes" ADD COLUMN "amr" TEXT NOT NULL DEFAULT '["pwd"]';
ALTER TABLE "refresh_tokens" ADD COLUMN "amr" TEXT NOT NULL DEFAULT '["pwd"]';

CREATE TABLE "passkeys" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "credential_id" TEXT NOT NULL,
    "public_key" TEXT NOT NULL,
    "counter" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT NOT NULL DEFAULT '[]',
    "device_type" TEXT NOT NULL,
    "backed_up" BOOLEAN NOT NULL DEFAULT false,
    "name" TEXT NOT NULL,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" {{timestamp}}
);
CREATE UNIQUE INDEX "passkeys_credential_id_key" ON "passkeys" ("credential_id");
CREATE INDEX "passkeys_user_id_idx" ON "passkeys" ("user_id");

CREATE TABLE "totp_factors" (
    "user_id" TEXT NOT NULL PRIMARY KEY REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "sealed_secret" TEXT NOT NULL,
    "confirmed_at" {{timestamp}},
    "last_used_step" INTEGER,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "recovery_codes" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "code_hash" TEXT NOT NULL,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "used_at" {{timestamp}}
);
CREATE UNIQUE INDEX "recovery_codes_code_hash_key" ON "recovery_codes" ("code_hash");
CREATE INDEX "recovery_codes_user_id_idx" ON "recovery_codes" ("user_id");

CREATE TABLE "webauthn_challenges" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "challenge_hash" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "user_id" TEXT REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" {{timestamp}} NOT NULL,
    "used_at" {{timestamp}}
);
CREATE UNIQUE INDEX "webauthn_challenges_challenge_hash_key" ON "webauthn_challenges" ("challenge_hash");
CREATE INDEX "webauthn_challenges_expires_at_idx" ON "webauthn_challenges" ("expires_at");
