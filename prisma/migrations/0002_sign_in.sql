-- Sign-in: throttling of failed attempts, and the requested scopes of an authorization code.

ALTER TABLE "authorization_codes" ADD COLUMN "requested_scopes" TEXT NOT NULL DEFAULT '';

CREATE TABLE "login_throttles" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL,
    "window_started_at" {{timestamp}} NOT NULL,
    "locked_until" {{timestamp}}
);
