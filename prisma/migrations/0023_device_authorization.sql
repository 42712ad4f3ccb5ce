-- Devices sign in with a code (RFC 8628, issue 47): a device's authorization request waits for a person to allow or
-- deny it at /device, then the device's poll redeems it once. The device code is kept as its SHA-256, the user code
-- as an HMAC under a key from SECRET_KEY; the poll interval grows with each poll too early.

CREATE TABLE "device_authorizations" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "device_code_hash" TEXT NOT NULL,
    "user_code_hash" TEXT NOT NULL,
    "client_id" TEXT NOT NULL REFERENCES "clients" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "scopes" TEXT NOT NULL,
    "network" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "poll_interval" INTEGER NOT NULL,
    "next_poll_at" {{timestamp}} NOT NULL,
    "user_id" TEXT REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "granted_scopes" TEXT,
    "auth_time" {{timestamp}},
    "amr" TEXT,
    "consent_id" TEXT,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" {{timestamp}} NOT NULL,
    "decided_at" {{timestamp}},
    "redeemed_at" {{timestamp}}
);
CREATE UNIQUE INDEX "device_authorizations_device_code_hash_key" ON "device_authorizations" ("device_code_hash");
CREATE UNIQUE INDEX "device_authorizations_user_code_hash_key" ON "device_authorizations" ("user_code_hash");
CREATE INDEX "device_authorizations_client_id_status_expires_at_idx" ON "device_authorizations" ("client_id", "status", "expires_at");
CREATE INDEX "device_authorizations_user_id_idx" ON "device_authorizations" ("user_id");
CREATE INDEX "device_authorizations_expires_at_idx" ON "device_authorizations" ("expires_at");
