/**
 * Which company's own sign-in an address belongs to (issue 46), and SSO-only: a company may make its identity
 * provider the only way in for its people. An existing account belongs to its own company's provider, whatever its
 * address's domain (so an address changed to a private one does not escape SSO-only, and another company's claim of
 * a domain neither routes nor locks out people who are not its own); an address without an account, to the provider
 * of the company that verified its domain. Passwords and reset links are refused before any password is checked (so
 * the refusal says nothing about the password). Operators are exempt: their company cannot have SSO.
 */
import { emailDomain } from "@/lib/http/domain-name";
import type { CompanySso } from "@/lib/store/models/company-sso";
import type { Stores } from "@/lib/store/stores";

type SsoStores = Pick<Stores, "companySso" | "users">;

/** The provider, turned on, that signs this address in; null: the address signs in with OptiGate's own factors. */
export async function companySsoForAddress(stores: SsoStores, email: string): Promise<CompanySso | null> {
  const user = await stores.users.findWithCompanyByEmail(email);
  if (user) {
    const sso = await stores.companySso.find(user.companyId);
    return sso?.enabled ? sso : null;
  }
  const domain = emailDomain(email);
  return (domain ? await stores.companySso.ssoForEmailDomain(domain) : null)?.config ?? null;
}

/** Whether the address's company allows only its own provider. */
export async function isSsoOnlyAddress(stores: SsoStores, email: string): Promise<boolean> {
  return (await companySsoForAddress(stores, email))?.ssoOnly === true;
}
