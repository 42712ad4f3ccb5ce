-- A company's provider ends the OptiGate sessions signed in through it (OpenID Connect Back-Channel Logout 1.0, issue
-- 46): each session keeps the provider's issuer and, when its ID token named one, the provider's session id (`sid`).

ALTER TABLE "login_sessions" ADD COLUMN "upstream_issuer" TEXT;
ALTER TABLE "login_sessions" ADD COLUMN "upstream_sid" TEXT;
CREATE INDEX "login_sessions_upstream_issuer_upstream_sid_idx" ON "login_sessions" ("upstream_issuer", "upstream_sid");
