-- Combined sign-out: the clients' front- and back-channel logout URIs, and the clients each login session served.

ALTER TABLE "clients" ADD COLUMN "frontchannel_logout_uri" TEXT;
ALTER TABLE "clients" ADD COLUMN "backchannel_logout_uri" TEXT;

CREATE TABLE "login_session_clients" (
    "session_id" TEXT NOT NULL REFERENCES "login_sessions" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "client_id" TEXT NOT NULL,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY ("session_id", "client_id")
);
