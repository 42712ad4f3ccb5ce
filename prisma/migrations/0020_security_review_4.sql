-- The fourth security review. Decisions an operator takes are marked as the operator's, so that a company
-- administrator cannot undo them (the rules and deactivations that exist count as the operator's: who took them is
-- not recorded in a form to trust); account links remember the address they were mailed to, so that a changed
-- address cuts off the old mailbox; an authenticator app waiting for its first code belongs to the session that
-- started it; a user remembers when everything of theirs was last signed out, so that access tokens from before
-- that get no catalog ticket.

ALTER TABLE "companies" ADD COLUMN "second_factor_rule_by_operator" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "users" ADD COLUMN "deactivated_by_operator" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "users" ADD COLUMN "signed_out_at" {{timestamp}};
UPDATE "companies" SET "second_factor_rule_by_operator" = "require_second_factor";
UPDATE "users" SET "deactivated_by_operator" = NOT "suspended_with_company" WHERE NOT "active";
ALTER TABLE "account_links" ADD COLUMN "sent_to" TEXT;
ALTER TABLE "totp_factors" ADD COLUMN "login_session_id" TEXT;
