-- A software vendor's applications waiting for approval may sign in the vendor's own people, limited to the OpenID
-- scopes and marked as sandbox sign-ins (issue 49); the operator can turn that off per vendor.

ALTER TABLE "companies" ADD COLUMN "partner_sandbox" BOOLEAN NOT NULL DEFAULT true;
