-- The fourth security review. Decisions an operator takes are marked as the operator's, so that a company
-- administrator cannot undo them; account links remember the address they were mailed to, so that a changed address
-- cuts off the old mailbox; an authenticator app waiting for its first code belongs to the session that started it.

ALTER TABLE "companies" ADD COLUMN "second_factor_rule_by_operator" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "users" ADD COLUMN "deactivated_by_operator" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "account_links" ADD COLUMN "sent_to" TEXT;
ALTER TABLE "totp_factors" ADD COLUMN "login_session_id" TEXT;
