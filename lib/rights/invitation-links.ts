/**
 * The invitation page and its form. Public: the link's token is the right, checked in lib/admin/invitation-acceptance;
 * the page shows only the invitation's own address and company. Joining starts a login session, audited as a
 * sign-in (counted as one by email link), so the person arrives signed in.
 */
import "server-only";
import { joinByInvitation, readInvitationLink, type JoiningPerson } from "@/lib/admin/invitation-acceptance";
import type { ServiceContext } from "@/lib/service-context";
import { signInUser } from "@/lib/session/login-session";
import { countSignIn } from "@/lib/observability/metrics";
import { getServiceContext } from "@/lib/service-context";

export { PersonFieldError } from "@/lib/admin/person-fields";
export { PasswordPolicyError } from "@/lib/crypto/password-policy";
export type { ClosedLink } from "@/lib/admin/invitation-acceptance";

/**
 * What the invitation page shows: the open invitation's address and company (and the names its inviter gave, to offer,
 * and the language it was written in, whose words its strength meter reads as the server does), or why the link is
 * closed.
 */
export async function invitationOfLink(token: string | undefined) {
  const link = await readInvitationLink(getServiceContext().stores, token);
  if (link.state !== "open") return link;
  const { state, email, companyName, givenName, familyName, language } = link;
  return { state, email, companyName, givenName, familyName, language };
}

export async function joinAndSignIn(
  context: ServiceContext,
  token: string | undefined,
  person: JoiningPerson,
  client: { ipAddress?: string; userAgent?: string },
) {
  const joined = await joinByInvitation(context.stores, token, person, context.config);
  if ("closed" in joined) return joined;
  const { cookieValue } = await signInUser(context.stores, { id: joined.userId }, client, { invitation: true });
  countSignIn("email_link", "success");
  // A company that requires a second factor has its new people set one up first.
  return { cookieValue, enrol: (await context.stores.secondFactors.count(joined.userId)).required };
}
