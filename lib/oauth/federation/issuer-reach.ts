/**
 * Whether a trusted issuer may speak for a local user: a partner's authorization server asserts its own people only,
 * the users of the companies the operator named for it or with an email address in its domains. Operator accounts
 * are never reached through an email claim; an explicit link by the operator can reach one within the issuer's reach.
 */
import type { IssuerReach, SubjectMapping } from "@/lib/store/models/trusted-issuer";

export interface ReachableUser {
  email: string;
  companyId: string;
  company: { kind: string };
}

const emailDomainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1);

export function issuerReaches(
  issuer: { reach: IssuerReach | null; subjectMapping: SubjectMapping },
  user: ReachableUser,
): boolean {
  const { reach } = issuer;
  if (!reach) return false;
  if (issuer.subjectMapping === "email" && user.company.kind === "operator") return false;
  return reach.companies.includes(user.companyId) || reach.emailDomains.includes(emailDomainOf(user.email));
}
