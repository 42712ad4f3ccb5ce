/**
 * Validates an authorization request (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2.1) in two stages. First the
 * client and its redirect URI: until both are verified nothing may be sent to the redirect URI, so these errors are
 * UnsafeRedirectError (OptiGate's own error page). Then everything else: those errors go back to the client as
 * AuthorizationError, carrying where and how to send them. `resource` (RFC 8707) may repeat: the grant holds every
 * resource named that the client may reach.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { MAX_SCOPE_PARAMETER_LENGTH, MAX_TOKEN_LENGTH, MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import type { ClientStore } from "@/lib/store/client-store";
import type { ServiceContext } from "@/lib/service-context";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import {
  invalidRequest,
  invalidScope,
  OAuthError,
  UnsafeRedirectError,
  unauthorizedClient,
} from "@/lib/errors/oauth-error";
import { parseCodeChallenge, parseDpopJkt } from "@/lib/oauth/authorize/code-bindings";
import { firstValue as first, REPEATABLE_PARAMETERS } from "@/lib/oauth/request-parameters";
import { grantedResources } from "@/lib/oauth/resource-indicators";
import { isAllowedRedirectUri } from "@/lib/oauth/redirect-uri-matching";
import { OFFLINE_ACCESS } from "@/lib/oauth/scopes";
import { requestedAcr } from "@/lib/oauth/authorize/requested-acr";
import { parseMaxAge, parsePrompt, type Prompt } from "@/lib/oauth/authorize/prompt-parameters";
import { checkTrialRequest, isTrialRedirect, sandboxScopes } from "@/lib/oauth/authorize/vendor-sign-in";
import type { Acr } from "@/lib/session/authentication-level";

type ResponseMode = "query" | "fragment" | "form_post";
type ResponseType = "code" | "token" | "id_token" | "id_token token";

export interface RedirectTarget {
  redirectUri: string;
  responseMode: ResponseMode;
  state?: string;
  /** A sandbox's vendor (lib/oauth/authorize/vendor-sign-in.ts): its unreviewed redirect URI is for its people only. */
  sandboxOf?: string;
}

export interface AuthorizationRequest extends RedirectTarget {
  client: ClientWithSecrets;
  responseType: ResponseType;
  state: string;
  scopes: string[];
  /** The scope parameter as sent. */
  scope: string;
  codeChallenge?: string;
  nonce?: string;
  prompt: Set<Prompt>;
  maxAge?: number;
  uiLocales?: string;
  loginHint?: string;
  idTokenHint?: string;
  /** the authentication level asked for (acr_values, or an essential acr in claims) */
  acr?: Acr;
  /** RFC 9449 §10: the thumbprint of the DPoP key the code is bound to. */
  dpopJkt?: string;
  /** RFC 8707: the resource servers named, which the grant holds; none: the default audience. */
  resources: string[];
  /** "Try sign-in" on the partner portal, through OptiGate's own redirect URI (lib/oauth/authorize/vendor-sign-in.ts). */
  trial?: true;
  /** RFC 9126: the request_uri of the pushed request this one came from. */
  pushedRequestUri?: string;
  /**
   * A pushed request's parameters cannot lose prompt=login and max_age after the login, as a request's own URL does:
   * a sign-in since the request started satisfies them.
   */
  signedInSince?: Date;
  /** The request's parameters that OptiGate acts on, to continue the flow after login or consent. */
  parameters: URLSearchParams;
}

export interface RequestOrigin {
  /** The request_uri the parameters were pushed under, when they were. */
  pushedRequestUri?: string;
  /** The client is pushing the request now (RFC 9126 §2). */
  beingPushed?: true;
  /** When a pushed request started (AuthorizationRequest.signedInSince). */
  signedInSince?: Date;
  /** REQUIRE_PAR: every request must have been pushed. */
  requirePar?: boolean;
}

/** An OAuth error to send to a verified redirect URI: its code is the protocol error's. */
export class AuthorizationError extends OptiGateError<OAuthError["code"]> {
  constructor(
    readonly error: OAuthError,
    readonly target: RedirectTarget,
  ) {
    super(error.message);
  }

  get code(): OAuthError["code"] {
    return this.error.code;
  }
}

const RESPONSE_MODES: ResponseMode[] = ["query", "fragment", "form_post"];
const RESPONSE_TYPES: ResponseType[] = ["code", "token", "id_token", "id_token token"];

/** response_type values are sets of words: "token id_token" is "id_token token". */
function normalizeResponseType(value: string | undefined): string | undefined {
  return value?.split(" ").filter(Boolean).sort().join(" ");
}

/** Tokens must never travel in the query (OAuth 2.0 Multiple Response Types §3.0). */
const defaultResponseMode = (responseType: string | undefined): ResponseMode =>
  responseType === undefined || responseType === "code" ? "query" : "fragment";

/** The parameters OptiGate acts on; the flow carries these on (login, consent) and drops the rest, which it ignores. */
const AUTHORIZATION_PARAMETERS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "response_mode",
  "scope",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "prompt",
  "max_age",
  "ui_locales",
  "login_hint",
  // the company domain whose own sign-in the person takes (lib/forms/company-sso-start.ts)
  "idp_hint",
  "id_token_hint",
  "acr_values",
  "claims",
  "dpop_jkt",
  "resource",
] as const;
/** What a pushed request carries on through login and consent: its reference, and what the pages show. */
const PUSHED_CONTINUATION = ["ui_locales", "login_hint", "idp_hint"] as const;
const NON_EMPTY_ASCII = /^[\x20-\x7e]+$/;
/** The clients, and the configuration that names OptiGate's own resource servers. */
type ResourceContext = Pick<ServiceContext, "stores" | "config">;

async function verifyClientAndRedirectUri(
  clients: ClientStore,
  params: URLSearchParams,
  publicUrl: string,
): Promise<{ client: ClientWithSecrets; redirectUri: string; trial: boolean }> {
  if (params.getAll("client_id").length > 1)
    throw new UnsafeRedirectError("invalid_request", 'parameter "client_id" must not be repeated');
  if (params.getAll("redirect_uri").length > 1)
    throw new UnsafeRedirectError("invalid_request", 'parameter "redirect_uri" must not be repeated');
  const clientId = first(params, "client_id");
  if (!clientId) throw new UnsafeRedirectError("invalid_request", "client_id is missing");
  const client = await clients.find(clientId);
  if (!client) throw new UnsafeRedirectError("invalid_client", "the application is not registered with OptiGate");
  const redirectUri = first(params, "redirect_uri");
  if (!redirectUri) throw new UnsafeRedirectError("invalid_request", "redirect_uri is missing");
  const trial = isTrialRedirect(client, redirectUri, publicUrl);
  if (!trial && !isAllowedRedirectUri(client, redirectUri))
    throw new UnsafeRedirectError("invalid_request", "redirect_uri is not registered for this application");
  return { client, redirectUri, trial };
}

/** The requested scopes, each one the client may ask for (the device authorization endpoint checks them alike). */
export function parseScopes(client: ClientWithSecrets, scope: string | undefined): string[] {
  if (!scope) throw invalidRequest("scope is missing");
  if (scope.length > MAX_SCOPE_PARAMETER_LENGTH)
    throw invalidScope(`scope must be at most ${MAX_SCOPE_PARAMETER_LENGTH} characters`);
  const scopes = sandboxScopes(client, [...new Set(scope.split(" ").filter(Boolean))]);
  for (const name of scopes) {
    if (!client.allowedScopes.includes(name)) {
      throw invalidScope(
        name === OFFLINE_ACCESS
          ? "this application may not request offline access"
          : `scope "${name}" is not allowed for this application`,
      );
    }
  }
  return scopes;
}

/** The parameters to continue with: a pushed request's reference, or the request's own. */
function continuationParameters(params: URLSearchParams, origin: RequestOrigin): URLSearchParams {
  const names = origin.pushedRequestUri ? ["client_id", ...PUSHED_CONTINUATION] : AUTHORIZATION_PARAMETERS;
  const parameters = new URLSearchParams(names.flatMap((name) => params.getAll(name).map((value) => [name, value])));
  if (origin.pushedRequestUri) parameters.set("request_uri", origin.pushedRequestUri);
  return parameters;
}

type ValidatedParameters = Omit<AuthorizationRequest, keyof RedirectTarget | "client" | "parameters" | "resources"> & {
  state: string;
};

function validateRest(client: ClientWithSecrets, params: URLSearchParams, target: RedirectTarget): ValidatedParameters {
  for (const name of new Set(params.keys())) {
    if (params.getAll(name).length > 1 && !REPEATABLE_PARAMETERS.has(name))
      throw invalidRequest(`parameter "${name}" must not be repeated`);
  }
  if (first(params, "request") !== undefined)
    throw new OAuthError("request_not_supported", "request objects are not supported");
  if (first(params, "request_uri") !== undefined)
    throw new OAuthError("request_uri_not_supported", "request_uri must be one that /connect/par handed out");
  const responseType = normalizeResponseType(first(params, "response_type")) as ResponseType | undefined;
  if (!responseType) throw invalidRequest("response_type is missing");
  if (!RESPONSE_TYPES.includes(responseType))
    throw new OAuthError("unsupported_response_type", `response_type "${responseType}" is not supported`);
  if (!client.responseTypes.includes(responseType))
    throw unauthorizedClient(`this application is not registered for response_type "${responseType}"`);
  if (responseType !== "code" && target.responseMode === "query")
    throw invalidRequest("tokens are never sent in the query: use response_mode fragment or form_post");
  if (!target.state) throw invalidRequest("state is missing");
  const nonce = first(params, "nonce");
  if (responseType.includes("id_token") && nonce === undefined)
    throw invalidRequest("nonce is required when an ID token is returned from the authorization endpoint");
  for (const [name, value] of [
    ["state", target.state],
    ["nonce", nonce],
  ] as const) {
    if (value !== undefined && (!NON_EMPTY_ASCII.test(value) || value.length > 512))
      throw invalidRequest(`${name} must be printable ASCII of at most 512 characters`);
  }
  const scope = first(params, "scope");
  const scopes = parseScopes(client, scope);
  const idTokenHint = first(params, "id_token_hint");
  if (idTokenHint !== undefined && idTokenHint.length > MAX_TOKEN_LENGTH)
    throw invalidRequest("id_token_hint is too long to be an ID token of OptiGate");
  const loginHint = first(params, "login_hint");
  if (responseType.includes("id_token") && !scopes.includes("openid"))
    throw invalidScope('an ID token needs the scope "openid"');
  return {
    responseType,
    state: target.state,
    scopes,
    scope: scope!,
    codeChallenge: responseType === "code" ? parseCodeChallenge(client, params) : undefined,
    dpopJkt: parseDpopJkt(params, responseType),
    nonce,
    prompt: parsePrompt(first(params, "prompt")),
    maxAge: parseMaxAge(first(params, "max_age")),
    uiLocales: first(params, "ui_locales"),
    // Only a hint: one longer than any user name is left out.
    loginHint: loginHint !== undefined && loginHint.length <= MAX_USERNAME_LENGTH ? loginHint : undefined,
    idTokenHint,
    acr: requestedAcr(first(params, "acr_values"), first(params, "claims")),
  };
}

/** Validates the request; throws UnsafeRedirectError or AuthorizationError. */
export async function validateAuthorizationRequest(
  context: ResourceContext,
  params: URLSearchParams,
  origin: RequestOrigin = {},
): Promise<AuthorizationRequest> {
  const { publicUrl } = context.config;
  const { client, redirectUri, trial } = await verifyClientAndRedirectUri(context.stores.clients, params, publicUrl);
  const state = params.getAll("state").length === 1 ? first(params, "state") : undefined;
  const requestedMode = params.getAll("response_mode").length === 1 ? first(params, "response_mode") : undefined;
  const validMode = RESPONSE_MODES.includes(requestedMode as ResponseMode);
  const responseType =
    params.getAll("response_type").length === 1 ? normalizeResponseType(first(params, "response_type")) : undefined;
  const target: RedirectTarget = {
    redirectUri,
    state,
    sandboxOf: client.sandbox ? (client.ownerCompanyId ?? undefined) : undefined,
    responseMode: validMode ? (requestedMode as ResponseMode) : defaultResponseMode(responseType),
  };
  try {
    const pushed = origin.pushedRequestUri !== undefined || origin.beingPushed;
    if (!pushed && (origin.requirePar || client.requirePushedAuthorizationRequests))
      throw invalidRequest("push the authorization request to /connect/par first and send its request_uri (RFC 9126)");
    if (requestedMode !== undefined && !validMode)
      throw invalidRequest(`response_mode "${requestedMode}" is not supported`);
    const rest = validateRest(client, params, target);
    if (trial) checkTrialRequest(rest, target.responseMode);
    // The implicit flow's access token comes from the authorization endpoint: for one resource at most.
    const issuesToken = rest.responseType.split(" ").includes("token");
    const resources = grantedResources(context.config, client, params.getAll("resource"), issuesToken);
    const parameters = continuationParameters(params, origin);
    const { pushedRequestUri, signedInSince } = origin;
    const marks = { pushedRequestUri, signedInSince, trial: trial || undefined };
    return { ...target, ...rest, client, resources, parameters, ...marks };
  } catch (error) {
    if (error instanceof OAuthError) throw new AuthorizationError(error, target);
    throw error;
  }
}
