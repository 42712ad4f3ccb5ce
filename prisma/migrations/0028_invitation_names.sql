-- An invitation may carry the names its inviter knows (a management API client provisioning a company's staff from
-- its ERP, issue 48); the invitation page offers them, and the person may change them before joining.

ALTER TABLE "invitations" ADD COLUMN "given_name" TEXT;
ALTER TABLE "invitations" ADD COLUMN "family_name" TEXT;
