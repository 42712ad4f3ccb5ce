/**
 * Opening an invitation link (/invitation): the link is the only right needed, so it is checked here and nowhere
 * else. A link is open until it is used, revoked or replaced (then it is unknown), or expires; the person then sets
 * their name and password and becomes a user with a verified email, since the link reached that mailbox.
 */
import { MAX_TOKEN_LENGTH } from "@/lib/config/policy";
import { hashPassword } from "@/lib/crypto/password";
import { hashToken } from "@/lib/crypto/tokens";
import type { Stores } from "@/lib/store/stores";
import { isLocale, type Locale } from "@/lib/i18n/locales";
import { checkNewPassword } from "@/lib/crypto/password-policy";
import type { Config } from "@/lib/config";
import { breachedPasswordCheck, type BreachCheckSettings } from "@/lib/http/breached-passwords";
import { parseName } from "@/lib/admin/person-fields";

export type ClosedLink = "unknown" | "used" | "expired" | "company_inactive" | "already_user";

export type InvitationLink =
  | {
      state: "open";
      id: string;
      email: string;
      companyId: string;
      companyName: string;
      role: string;
      language?: Locale;
      /** the names the inviter gave, offered on the page */
      givenName?: string;
      familyName?: string;
    }
  | { state: Exclude<ClosedLink, "already_user"> };

const TOKEN = /^[A-Za-z0-9_-]+$/;

export async function readInvitationLink(
  stores: Stores,
  token: string | undefined,
  now = new Date(),
): Promise<InvitationLink> {
  if (!token || token.length > MAX_TOKEN_LENGTH || !TOKEN.test(token)) return { state: "unknown" };
  const invitation = await stores.invitations.findByTokenHash(hashToken(token));
  if (!invitation) return { state: "unknown" };
  if (invitation.acceptedAt) return { state: "used" };
  if (invitation.expiresAt <= now) return { state: "expired" };
  if (!invitation.company.active) return { state: "company_inactive" };
  return {
    state: "open",
    id: invitation.id,
    email: invitation.email,
    companyId: invitation.companyId,
    companyName: invitation.company.name,
    role: invitation.role,
    language: isLocale(invitation.language) ? invitation.language : undefined,
    ...(invitation.givenName ? { givenName: invitation.givenName } : {}),
    ...(invitation.familyName ? { familyName: invitation.familyName } : {}),
  };
}

export interface JoiningPerson {
  givenName: string;
  familyName: string;
  password: string;
  /** the language of the page they join on, whose words their password is checked against too */
  language: Locale;
}

/**
 * Accepts the invitation: the new user's id, or why the link cannot be used; PersonFieldError for a bad name,
 * PasswordPolicyError for a refused password.
 */
export async function joinByInvitation(
  stores: Stores,
  token: string | undefined,
  person: JoiningPerson,
  config: Pick<Config, "passwordMinLength"> & BreachCheckSettings,
  now = new Date(),
): Promise<{ userId: string; email: string } | { closed: ClosedLink }> {
  const link = await readInvitationLink(stores, token, now);
  if (link.state !== "open") return { closed: link.state };
  const givenName = parseName(person.givenName, "given_name");
  const familyName = parseName(person.familyName, "family_name");
  const password = await checkNewPassword(person.password, {
    minLength: config.passwordMinLength,
    person: { givenName, familyName, email: link.email, companyName: link.companyName },
    languages: [person.language, link.language],
    breached: breachedPasswordCheck(config),
  });
  const passwordHash = await hashPassword(password);
  const outcome = await stores.invitations.accept(
    {
      invitationId: link.id,
      email: link.email,
      companyId: link.companyId,
      role: link.role,
      language: link.language ?? "en",
      givenName,
      familyName,
      passwordHash,
    },
    now,
  );
  return typeof outcome === "string" ? { closed: outcome } : { userId: outcome.userId, email: link.email };
}
