/**
 * SSO-only (issue 46): a company may make its own identity provider the only way in for its verified domains. Then
 * a password and a reset link are refused for those addresses, before any password is checked (so the refusal says
 * nothing about the password). Operators are exempt: their company cannot have SSO, and they must never be locked
 * out by another company's domain claim.
 */
import { emailDomain } from "@/lib/http/domain-name";
import type { Stores } from "@/lib/store/stores";

/** Whether the address's domain is verified for a company whose provider is on and the only way in. */
export async function isSsoOnlyAddress(stores: Pick<Stores, "companySso" | "users">, email: string): Promise<boolean> {
  const domain = emailDomain(email);
  const sso = domain ? await stores.companySso.ssoForEmailDomain(domain) : null;
  if (!sso?.config.ssoOnly) return false;
  const user = await stores.users.findWithCompanyByEmail(email);
  return user?.company.kind !== "operator";
}
