-- Companies sign in with their own identity provider (issue 46): one upstream OpenID Connect provider per company,
-- its client secret sealed with SECRET_KEY; the email domains a company claims, each proven by a DNS TXT record or
-- by an operator, one company per domain; and the upstream accounts (issuer and subject) linked to local users.

CREATE TABLE "company_sso" (
    "company_id" TEXT NOT NULL PRIMARY KEY REFERENCES "companies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "issuer" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_sealed" TEXT,
    "auth_method" TEXT NOT NULL DEFAULT 'client_secret_basic',
    "scope" TEXT NOT NULL DEFAULT 'openid email profile',
    "claims" TEXT NOT NULL DEFAULT '{}',
    "hosted_domain" TEXT,
    "tenant_id" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "sso_only" BOOLEAN NOT NULL DEFAULT false,
    "registered_by_operator" BOOLEAN NOT NULL DEFAULT false,
    "tested_at" {{timestamp}},
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "company_domains" (
    "domain" TEXT NOT NULL PRIMARY KEY,
    "company_id" TEXT NOT NULL REFERENCES "companies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "verification_token" TEXT NOT NULL,
    "verified_at" {{timestamp}},
    "verified_by" TEXT,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "company_domains_company_id_idx" ON "company_domains" ("company_id");

CREATE TABLE "company_sso_identities" (
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "user_id" TEXT NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "company_id" TEXT NOT NULL REFERENCES "companies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    "created_at" {{timestamp}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_sign_in_at" {{timestamp}},
    PRIMARY KEY ("issuer", "subject")
);
CREATE INDEX "company_sso_identities_user_id_idx" ON "company_sso_identities" ("user_id");
CREATE INDEX "company_sso_identities_company_id_idx" ON "company_sso_identities" ("company_id");
