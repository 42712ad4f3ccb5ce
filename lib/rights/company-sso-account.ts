/**
 * Which local user a company's provider signed in (issue 46). The provider speaks only for its own company: an
 * account linked for this company is that user (active, still in the company); otherwise the address must be in one
 * of the company's verified domains, and a new user is made there just in time. An existing user with that address
 * is never linked silently: a person of the company proves the account theirs with its password first
 * (company-sso-link.ts); an account of another company or none is refused, as the provider does not speak for it.
 */
import "server-only";
import { emailDomain } from "@/lib/http/domain-name";
import { parseEmail, parseName } from "@/lib/admin/person-fields";
import type { CompanySignInIdentity } from "@/lib/oauth/company-sso/upstream-identity";
import type { ServiceContext } from "@/lib/service-context";
import type { CompanySso, SsoIdentity } from "@/lib/store/models/company-sso";

export type CompanyAccountRefusal =
  "account_disabled" | "sso_domain_not_verified" | "sso_account_exists" | "sso_refused";
export type CompanyAccount =
  | { ok: true; userId: string; created: boolean }
  | { ok: false; error: CompanyAccountRefusal }
  | { ok: false; error: "sso_link_offered"; userId: string; email: string };

/** Stronger roles first: a person in several mapped groups gets the strongest. */
const ROLE_ORDER = ["admin", "developer", "user"];

/** The role the person's groups map to (the company's claims.roles), "user" when none does. */
export function roleOf(roles: Record<string, string>, groups: readonly string[] = []): string {
  const mapped = new Set(groups.flatMap((group) => (Object.hasOwn(roles, group) ? [roles[group]] : [])));
  return ROLE_ORDER.find((role) => mapped.has(role)) ?? "user";
}

/** The provider's address as a person's address, or undefined when it is none (too long, malformed). */
function addressOf(raw: string | undefined): string | undefined {
  try {
    return raw === undefined ? undefined : parseEmail(raw);
  } catch {
    return undefined;
  }
}

/** The provider's name as the people pages take one: empty when it sent none or one they would refuse. */
function nameOf(raw: string | undefined, field: "given_name" | "family_name"): string {
  try {
    return raw === undefined ? "" : parseName(raw, field);
  } catch {
    return "";
  }
}

async function linkedUser(context: ServiceContext, link: SsoIdentity): Promise<CompanyAccount | null> {
  const linked = await context.stores.companySso.findIdentity(link);
  if (!linked) return null;
  const user = await context.stores.users.findActive(linked.userId);
  return user?.companyId === link.companyId
    ? { ok: true, userId: user.id, created: false }
    : { ok: false, error: "account_disabled" };
}

async function isVerifiedDomainOf(context: ServiceContext, companyId: string, domain: string | null) {
  const domains = domain ? await context.stores.companySso.listDomains(companyId) : [];
  return domains.some((each) => each.domain === domain && each.verifiedAt !== null);
}

/** The answer for an address that has an account already: linking offered in the company, else refused. */
async function existingAccount(context: ServiceContext, companyId: string, email: string) {
  const userId = await context.stores.users.findIdByEmail(email);
  if (!userId) return null;
  const user = await context.stores.users.findActive(userId);
  return user?.companyId === companyId
    ? { ok: false as const, error: "sso_link_offered" as const, userId, email }
    : { ok: false as const, error: "sso_account_exists" as const };
}

export async function companyAccountFor(
  context: ServiceContext,
  sso: CompanySso,
  identity: CompanySignInIdentity,
): Promise<CompanyAccount> {
  // A deactivated company's people are suspended: nobody signs in there, nor is made just in time.
  if (!(await context.stores.companies.find(sso.companyId))?.active) return { ok: false, error: "account_disabled" };
  const link = { issuer: identity.issuer, subject: identity.subject, companyId: sso.companyId };
  const linked = await linkedUser(context, link);
  if (linked) return linked;
  const email = addressOf(identity.email);
  if (!email || !(await isVerifiedDomainOf(context, sso.companyId, emailDomain(email))))
    return { ok: false, error: "sso_domain_not_verified" };
  const existing = await existingAccount(context, sso.companyId, email);
  if (existing) return existing;
  const created = await context.stores.companySso.createUserWithIdentity(
    {
      email,
      givenName: nameOf(identity.givenName, "given_name"),
      familyName: nameOf(identity.familyName, "family_name"),
      companyId: sso.companyId,
      role: roleOf(sso.claims.roles, identity.groups),
      // The domain is verified (above): the provider's word on the address is then enough.
      emailVerified: identity.emailVerified,
      // No password: verifyPassword never matches an empty hash; a reset link can set one unless SSO-only.
      passwordHash: "",
    },
    link,
  );
  if (typeof created === "object") return { ok: true, userId: created.userId, created: true };
  // A twin request made the user or the link in between: the next attempt finds it.
  return { ok: false, error: created === "email_taken" ? "sso_account_exists" : "sso_refused" };
}
