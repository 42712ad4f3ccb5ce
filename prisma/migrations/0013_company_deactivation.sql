-- Deactivating a company (`companies deactivate`): its users are deactivated with it and marked, so that activating
-- the company brings back exactly those, not the ones deactivated on their own.

ALTER TABLE "companies" ADD COLUMN "active" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "users" ADD COLUMN "suspended_with_company" BOOLEAN NOT NULL DEFAULT false;
