/**
 * Linking an existing account to its company's provider (issue 46). The provider signed the person in, but the
 * address has an OptiGate account already: it is linked only once the account proves itself with its password, in
 * the same browser (the link kept in a sealed cookie, lib/oauth/company-sso/link-cookie.ts). The password is proof
 * here, not the way in, so SSO-only does not refuse it; the session that follows has both methods. The account must
 * still be the one the address belonged to, active and in the provider's company, and the provider still turned on.
 */
import "server-only";
import type { PendingSsoLink } from "@/lib/oauth/company-sso/link-cookie";
import { federatedAmr } from "@/lib/rights/company-sign-in-callback";
import { enterSignedIn, type SignInResult } from "@/lib/rights/sign-in";
import type { ServiceContext } from "@/lib/service-context";
import { verifyCredentials } from "@/lib/session/verify-credentials";

interface Attempt {
  username: string;
  password: string;
  ipAddress?: string;
  userAgent?: string;
}

export async function signInAndLink(
  context: ServiceContext,
  attempt: Attempt,
  link: PendingSsoLink,
): Promise<SignInResult | { ok: false; reason: "sso_refused" }> {
  const check = await verifyCredentials(context, attempt.username, attempt.password, attempt.ipAddress);
  if (!check.ok) return check;
  const { user } = check;
  const { companyId, issuer } = link.identity;
  const sso = await context.stores.companySso.find(companyId);
  if (user.id !== link.userId || user.companyId !== companyId || !sso?.enabled)
    return { ok: false, reason: "sso_refused" };
  // Linked to someone else meanwhile: refused. The link itself is written once the sign-in is complete (its second
  // step too, lib/rights/sign-in.ts), so that a password alone links nothing for an account with a second factor.
  const linked = await context.stores.companySso.findIdentity(link.identity);
  if (linked && linked.userId !== user.id) return { ok: false, reason: "sso_refused" };
  const client = { ipAddress: attempt.ipAddress, userAgent: attempt.userAgent };
  return enterSignedIn(context, user.id, client, {
    factor: "company_sso",
    // The account's own second factor is asked whatever the provider says: linking hands the account over to it.
    amr: [...federatedAmr(link.amr.filter((method) => method !== "mfa")), "pwd"],
    details: { method: "company_sso", companyId, issuer, linked: true },
    upstream: { issuer, sid: link.sid },
    link: link.identity,
  });
}
