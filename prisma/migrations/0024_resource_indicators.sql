-- Resource indicators (RFC 8707, issue 47): the resource servers a client may ask tokens for besides the platform API
-- and the catalog services (set by the operator), the partners' own APIs the operator lets a software vendor's
-- applications name, and the resources an authorization code's, a device request's and a refresh token's grant were
-- asked for.

ALTER TABLE "clients" ADD COLUMN "allowed_resources" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "companies" ADD COLUMN "partner_resources" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "authorization_codes" ADD COLUMN "resources" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "refresh_tokens" ADD COLUMN "resources" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "device_authorizations" ADD COLUMN "resources" TEXT NOT NULL DEFAULT '[]';
