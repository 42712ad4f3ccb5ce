-- The third security review: a trusted issuer names whom it may speak for (company ids and/or email domains, JSON
-- arrays; NULL until the operator sets them, and an issuer without either is refused); public clients' refresh
-- tokens are always rotated (RFC 9700 §4.14.2), so existing public clients move to the rotate policy; clients may
-- ask for the granted profile and email claims in their ID tokens.

ALTER TABLE "trusted_issuers" ADD COLUMN "companies" TEXT;
ALTER TABLE "trusted_issuers" ADD COLUMN "email_domains" TEXT;

UPDATE "clients" SET "refresh_token_policy" = 'rotate' WHERE "token_endpoint_auth_method" = 'none';

ALTER TABLE "clients" ADD COLUMN "id_token_claims" BOOLEAN NOT NULL DEFAULT false;
