-- Indexes on the expiry columns the purge selects by (lib/setup/purge-expired.ts), so that with a million refresh
-- tokens each batch reads only the rows it deletes instead of scanning the table.

CREATE INDEX "refresh_tokens_expires_at_idx" ON "refresh_tokens" ("expires_at");
CREATE INDEX "authorization_codes_expires_at_idx" ON "authorization_codes" ("expires_at");
CREATE INDEX "tickets_expires_at_idx" ON "tickets" ("expires_at");
CREATE INDEX "login_sessions_expires_at_idx" ON "login_sessions" ("expires_at");
CREATE INDEX "login_sessions_ended_at_idx" ON "login_sessions" ("ended_at");
