/**
 * The portal's access to a user's own things: the applications they allowed (and taking that access back), their
 * profile and language, their sessions. Every function acts for the signed-in user and touches only their rows.
 */
import "server-only";
import { requireUser, type Actor } from "@/lib/rights/actor";
import { isLocale, type Locale } from "@/lib/i18n/locales";
import { announceLogout } from "@/lib/oauth/endsession/channel-logout";
import { listApplicationGrants as queryGrants, type ApplicationGrant } from "@/lib/account/application-grants";

export type { ApplicationGrant };

export interface Profile {
  name: string;
  givenName: string;
  familyName: string;
  email: string;
  company: string;
  preferredLanguage: Locale | null;
}

export async function listApplicationGrants(actor: Actor, locale: string): Promise<ApplicationGrant[]> {
  const user = requireUser(actor);
  return queryGrants(user.context, user.session.user.id, locale);
}

/** Takes back the access the user gave an application; false when the user had given it none. */
export async function revokeApplication(actor: Actor, clientId: string): Promise<boolean> {
  const user = requireUser(actor);
  return user.context.stores.consents.revoke(user.session.user.id, clientId);
}

export function profileOf(actor: Actor): Profile {
  const { session, company } = requireUser(actor);
  const language = session.user.preferredLanguage;
  return {
    name: `${session.user.givenName} ${session.user.familyName}`,
    givenName: session.user.givenName,
    familyName: session.user.familyName,
    email: session.user.email,
    company: company.name,
    preferredLanguage: isLocale(language) ? language : null,
  };
}

/** Stores the language the pages are shown in for this user; null: follow the browser. */
export async function setPreferredLanguage(actor: Actor, language: Locale | null): Promise<void> {
  const user = requireUser(actor);
  await user.context.stores.users.savePreferredLanguage(user.session.user.id, language);
}

/**
 * Ends every session of the user and tells the applications they signed in to; returns the front-channel logout page
 * to show before going on to `next`, if any application registered one.
 */
export async function signOutEverywhere(actor: Actor, next: string): Promise<Response | undefined> {
  const user = requireUser(actor);
  const ended = await user.context.stores.loginSessions.endAll(user.session.user.id, new Date());
  return announceLogout(user.context, ended, next);
}
