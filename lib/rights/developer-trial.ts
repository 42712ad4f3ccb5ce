/**
 * "Try sign-in" on an application's page of the partner portal: the code flow with PKCE against the application's
 * own registration (its sandbox while it waits for approval), through OptiGate's own redirect URI, so that a
 * developer sees the tokens their application would get. The start keeps state, nonce and verifier in a sealed cookie
 * for the callback's path, marked with the developer; only that developer, still a developer of the application's
 * company, in the same browser, gets the tokens, which OptiGate redeems itself (lib/oauth/authorize/vendor-sign-in.ts).
 */
import "server-only";
import { calculatePKCECodeChallenge, randomNonce, randomPKCECodeVerifier, randomState } from "openid-client";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { INTERACTION_LIFETIME_SECONDS } from "@/lib/config/policy";
import { OAuthError } from "@/lib/errors/oauth-error";
import { OptiGateError } from "@/lib/errors/optigate-error";
import { expireCookie, isSecureOrigin, readCookie } from "@/lib/http/cookies";
import { ENDPOINTS } from "@/lib/http/paths";
import { sealedCookie, unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { trialRedirectUri } from "@/lib/oauth/authorize/vendor-sign-in";
import { redeemCode } from "@/lib/oauth/token/grants/authorization-code";
import { handleUserinfoRequest } from "@/lib/oauth/userinfo-endpoint";
import { AccessDenied, actorOfRequest, type Actor } from "@/lib/rights/actor";
import { requirePartner } from "@/lib/rights/partner-portal";
import type { ServiceContext } from "@/lib/service-context";

const COOKIE = "optigate_developer_trial";
const TRIAL_SCOPES = ["openid", "profile", "email"];

interface KeptTrial {
  clientId: string;
  userId: string;
  state: string;
  nonce: string;
  verifier: string;
  startedAt: number;
}

type TrialRefusal = "not_found" | "rejected" | "no_sandbox" | "no_code_flow";

/** Why a trial cannot start: the page says which. */
export class DeveloperTrialError extends OptiGateError<TrialRefusal> {
  constructor(readonly code: TrialRefusal) {
    super(`the application cannot be tried: ${code}`);
  }
}

/** A JWT as the page shows it: its header and its claims, never the token itself. */
export interface DecodedJwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

export type DeveloperTrialResult =
  | { ok: true; clientId: string; idToken?: DecodedJwt; accessToken: DecodedJwt; userinfo: unknown }
  | { ok: false; clientId: string; error: string; description?: string };

/** The developer's own application of their company, as the protocol sees it now (approved, or its sandbox). */
async function ownApplication(actor: Actor, clientId: string) {
  const [user] = await requirePartner(actor);
  const application = await user.context.stores.partners.find(clientId);
  if (!application || application.ownerCompanyId !== user.company.id) throw new DeveloperTrialError("not_found");
  const client = await user.context.stores.clients.find(clientId);
  if (!client) throw new DeveloperTrialError(application.status === "rejected" ? "rejected" : "no_sandbox");
  if (!client.grantTypes.includes("authorization_code")) throw new DeveloperTrialError("no_code_flow");
  return { user, client };
}

/** Where the developer's browser goes to sign in, and the cookie that keeps the trial. */
export async function startDeveloperTrial(
  actor: Actor,
  clientId: string,
  locale: string,
): Promise<{ location: string; cookie: string }> {
  const { user, client } = await ownApplication(actor, clientId);
  const { publicUrl, secretKey } = user.context.config;
  const kept: KeptTrial = {
    clientId,
    userId: user.session.user.id,
    state: randomState(),
    nonce: randomNonce(),
    verifier: randomPKCECodeVerifier(),
    startedAt: Date.now(),
  };
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: trialRedirectUri(publicUrl),
    response_type: "code",
    scope: TRIAL_SCOPES.filter((scope) => client.allowedScopes.includes(scope)).join(" "),
    state: kept.state,
    nonce: kept.nonce,
    code_challenge: await calculatePKCECodeChallenge(kept.verifier),
    code_challenge_method: "S256",
    // The developer sees the consent page as their users will, with the sandbox mark while it applies.
    prompt: "consent",
    ui_locales: locale,
  });
  const cookie = sealedCookie(COOKIE, kept, {
    secretKey,
    publicUrl,
    path: ENDPOINTS.developerTrialCallback,
    maxAgeSeconds: INTERACTION_LIFETIME_SECONDS,
  });
  return { location: `${publicUrl}${ENDPOINTS.authorize}?${query}`, cookie };
}

export const endDeveloperTrialCookie = (publicUrl: string) =>
  expireCookie(COOKIE, { secure: isSecureOrigin(publicUrl), path: ENDPOINTS.developerTrialCallback });

function keptTrial(request: Request, secretKey: string, now = Date.now()): KeptTrial | undefined {
  const kept = unsealedCookieValue<KeptTrial>(COOKIE, readCookie(request, COOKIE), secretKey);
  const age = kept ? now - kept.startedAt : -1;
  return kept && age >= 0 && age <= INTERACTION_LIFETIME_SECONDS * 1000 ? kept : undefined;
}

/** The signed-in developer who started this trial, if they still may try the application. */
async function trialOwner(context: ServiceContext, request: Request, kept: KeptTrial) {
  const actor = await actorOfRequest(context, request);
  if (actor.kind !== "user" || actor.session.user.id !== kept.userId) return undefined;
  try {
    return await ownApplication(actor, kept.clientId);
  } catch (error) {
    if (error instanceof AccessDenied || error instanceof DeveloperTrialError) return undefined;
    throw error;
  }
}

const decoded = (jwt: string): DecodedJwt => ({ header: decodeProtectedHeader(jwt), claims: decodeJwt(jwt) });

/** The userinfo endpoint's answer to the access token, exactly as the application would get it. */
async function userinfoAnswer(context: ServiceContext, accessToken: string): Promise<unknown> {
  const url = `${context.config.publicUrl}${ENDPOINTS.userinfo}`;
  const answer = await handleUserinfoRequest(
    new Request(url, { headers: { authorization: `Bearer ${accessToken}` } }),
    context,
  );
  return answer.json();
}

/**
 * Finishes a trial at the callback: the tokens decoded and the userinfo answer, or what the authorization server
 * answered instead; undefined when there is no trial of this developer to finish (the caller refuses with a 403).
 */
export async function finishDeveloperTrial(
  context: ServiceContext,
  request: Request,
): Promise<DeveloperTrialResult | undefined> {
  const kept = keptTrial(request, context.config.secretKey);
  const owner = kept ? await trialOwner(context, request, kept) : undefined;
  const params = new URL(request.url).searchParams;
  if (!kept || !owner || params.get("state") !== kept.state) return undefined;
  const { clientId } = kept;
  const error = params.get("error");
  if (error !== null)
    return {
      ok: false,
      clientId,
      error: error.slice(0, 100),
      description: params.get("error_description")?.slice(0, 300),
    };
  try {
    const body = await redeemCode(context, owner.client, {
      grantType: "authorization_code",
      code: params.get("code") ?? "",
      redirectUri: trialRedirectUri(context.config.publicUrl),
      codeVerifier: kept.verifier,
      trial: true,
    });
    const idToken = body.id_token ? decoded(body.id_token) : undefined;
    if (idToken && idToken.claims.nonce !== kept.nonce)
      return { ok: false, clientId, error: "invalid_nonce", description: "the ID token's nonce is not the trial's" };
    // Someone else may have signed in with the developer's link: their identity is not shown to the developer.
    const accessToken = decoded(body.access_token);
    if (accessToken.claims.sub !== kept.userId)
      return { ok: false, clientId, error: "other_person", description: "someone else signed in with this try" };
    const userinfo = await userinfoAnswer(context, body.access_token);
    return { ok: true, clientId, idToken, accessToken, userinfo };
  } catch (failure) {
    if (!(failure instanceof OAuthError)) throw failure;
    return { ok: false, clientId, error: failure.code, description: failure.message };
  }
}
