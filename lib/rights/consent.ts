/**
 * The consent step of an authorization request, for the signed-in user whose session the authorization endpoint
 * opened it for (lib/store/interaction-store.ts). The page shows the prompt; the form decides it once, and the
 * request is validated again before anything is issued, as the client's registration may have changed meanwhile.
 */
import "server-only";
import { requireUser, type Actor } from "@/lib/rights/actor";
import { localizedText } from "@/lib/i18n/localized-text";
import { AuthorizationError, type AuthorizationRequest } from "@/lib/oauth/authorize/authorization-request";
import { readAuthorizationRequest } from "@/lib/oauth/authorize/read-authorization-request";
import { completeAuthorization } from "@/lib/oauth/authorize/authorize-endpoint";
import { saveConsent } from "@/lib/oauth/authorize/save-consent";
import { OAuthError } from "@/lib/errors/oauth-error";
import type { DataAccess, ServiceContext } from "@/lib/service-context";

/** A scope as the person is asked for it: its name and description in their language; `openid` cannot be left out. */
export interface ScopeView {
  name: string;
  title: string;
  description: string;
  required: boolean;
}

export interface ConsentView {
  clientName: string;
  clientDescription?: string;
  /** the application waits for approval: a sandbox sign-in (lib/store/models/sandbox-client.ts) */
  sandbox: boolean;
  scopes: ScopeView[];
  user: { name: string; email: string };
}

/** The scopes as the consent page shows them, and the device page (lib/rights/device-approval.ts). */
export async function describeScopes(context: DataAccess, names: string[], locale: string): Promise<ScopeView[]> {
  const rows = await context.stores.consents.listScopes(names);
  const byName = new Map(rows.map((row) => [row.name, row]));
  return names.map((name) => {
    const row = byName.get(name);
    return {
      name,
      title: row ? localizedText(row.displayNames, locale, name) : name,
      description: row ? localizedText(row.descriptions, locale) : "",
      required: name === "openid",
    };
  });
}

async function consentView(
  context: ServiceContext,
  request: AuthorizationRequest,
  locale: string,
): Promise<Omit<ConsentView, "user">> {
  return {
    clientName: localizedText(request.client.names, locale, request.client.id),
    clientDescription: localizedText(request.client.descriptions, locale) || undefined,
    sandbox: request.client.sandbox === true,
    scopes: await describeScopes(context, request.scopes, locale),
  };
}

/** The scopes the user allowed: the ticked ones among those requested, and `openid` whenever it was requested. */
export function chosenScopes(requested: string[], ticked: string[]): string[] {
  return requested.filter((scope) => scope === "openid" || ticked.includes(scope));
}

/** What the consent page shows for the user's open prompt, or undefined when there is none (expired, answered). */
export async function consentPrompt(
  actor: Actor,
  interactionId: string,
  locale: string,
): Promise<ConsentView | undefined> {
  const user = requireUser(actor);
  const interaction = await user.context.stores.authorizationRequests.findInteraction(
    interactionId,
    user.session.id,
    new Date(),
  );
  if (!interaction) return undefined;
  const request = await readAuthorizationRequest(user.context, interaction.parameters).catch(() => undefined);
  if (!request) return undefined;
  const { givenName, familyName, email } = user.session.user;
  return { ...(await consentView(user.context, request, locale)), user: { name: `${givenName} ${familyName}`, email } };
}

/**
 * Decides the user's open prompt: remembers the decision and answers the client (a code, tokens, or access_denied),
 * or undefined when there is no such prompt. Throws AuthorizationError / UnsafeRedirectError when the request is no
 * longer valid.
 */
export async function decideConsent(
  actor: Actor,
  interactionId: string,
  ticked: string[] | "deny",
): Promise<Response | undefined> {
  const user = requireUser(actor);
  const interaction = await user.context.stores.authorizationRequests.takeInteraction(
    interactionId,
    user.session.id,
    new Date(),
  );
  if (!interaction) return undefined;
  const request = await readAuthorizationRequest(user.context, interaction.parameters);
  const granted = ticked === "deny" ? [] : chosenScopes(request.scopes, ticked);
  if (granted.length === 0)
    throw new AuthorizationError(new OAuthError("access_denied", "the user denied the request"), request);
  await saveConsent(user.context.stores.consents, user.session.user.id, request.client.id, request.scopes, granted);
  return completeAuthorization(user.context, request, user.session, granted, 303);
}

/**
 * Withdraws the user's open prompt undecided ("not you?"): returns the authorization request's parameters, for the
 * next user to sign in to the same request, or undefined when there is no such prompt.
 */
export async function withdrawConsentPrompt(actor: Actor, interactionId: string): Promise<URLSearchParams | undefined> {
  const user = requireUser(actor);
  return (await user.context.stores.authorizationRequests.takeInteraction(interactionId, user.session.id, new Date()))
    ?.parameters;
}
