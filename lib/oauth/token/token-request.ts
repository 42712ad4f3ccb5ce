/**
 * Validates a token request (RFC 6749 §4.1.3, §4.4.2, §6, RFC 8628 §3.4): the grant type is known and allowed for the
 * client, and the parameters its grant requires are there. The grants (grants/) then only process the typed request.
 */
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { invalidRequest, OAuthError, unauthorizedClient } from "@/lib/errors/oauth-error";
import { DEVICE_CODE_GRANT, JWT_BEARER_GRANT, TOKEN_EXCHANGE_GRANT } from "@/lib/oauth/grant-types";
import { optional, type Parameters } from "@/lib/oauth/request-parameters";

/** RFC 8693 §3: the token types a subject_token may be; each is a JWT of a trusted issuer. */
const SUBJECT_TOKEN_TYPES = [
  "urn:ietf:params:oauth:token-type:jwt",
  "urn:ietf:params:oauth:token-type:access_token",
  "urn:ietf:params:oauth:token-type:id_token",
];
export const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

/**
 * `dpopJkt`: the thumbprint of the key the request's DPoP proof was signed with (lib/oauth/dpop/); `resources`: the
 * RFC 8707 `resource` values as sent, which a grant turns into the token's audience (tokenAudience).
 */
export type TokenRequest = { dpopJkt?: string; resources?: readonly string[] } & (
  | {
      grantType: "authorization_code";
      code: string;
      redirectUri: string;
      codeVerifier?: string;
      /** redeemed by OptiGate's try-it callback (lib/oauth/authorize/vendor-sign-in.ts), never from the token endpoint */
      trial?: true;
    }
  | { grantType: "refresh_token"; refreshToken: string; scope?: string }
  | { grantType: "client_credentials"; scope?: string }
  | { grantType: typeof JWT_BEARER_GRANT; assertion: string; scope?: string }
  | { grantType: typeof DEVICE_CODE_GRANT; deviceCode: string }
  | {
      grantType: typeof TOKEN_EXCHANGE_GRANT;
      subjectToken: string;
      subjectTokenType: string;
      scope?: string;
      targets: string[];
    }
);

export type GrantType = TokenRequest["grantType"];

function required(params: Parameters, name: string): string {
  const value = optional(params, name);
  if (value === undefined) throw invalidRequest(`${name} is missing`);
  return value;
}

/** RFC 8693 §2.1: OptiGate issues access tokens for the subject alone (impersonation), for its own API. */
function readTokenExchange(params: Parameters): Extract<TokenRequest, { grantType: typeof TOKEN_EXCHANGE_GRANT }> {
  const subjectToken = required(params, "subject_token");
  const subjectTokenType = required(params, "subject_token_type");
  if (!SUBJECT_TOKEN_TYPES.includes(subjectTokenType))
    throw invalidRequest(`subject_token_type must be one of ${SUBJECT_TOKEN_TYPES.join(", ")}`);
  if (params.has("actor_token") || params.has("actor_token_type"))
    throw invalidRequest("actor_token is not supported: the token is issued for the subject alone");
  const requested = optional(params, "requested_token_type");
  if (requested !== undefined && requested !== ACCESS_TOKEN_TYPE)
    throw invalidRequest(`requested_token_type must be ${ACCESS_TOKEN_TYPE}`);
  const targets = ["audience", "resource"].flatMap((name) => optional(params, name) ?? []);
  return { grantType: TOKEN_EXCHANGE_GRANT, subjectToken, subjectTokenType, scope: optional(params, "scope"), targets };
}

const READERS: { [G in GrantType]: (params: Parameters) => Extract<TokenRequest, { grantType: G }> } = {
  authorization_code: (params) => ({
    grantType: "authorization_code",
    code: required(params, "code"),
    redirectUri: required(params, "redirect_uri"),
    codeVerifier: optional(params, "code_verifier"),
  }),
  refresh_token: (params) => ({
    grantType: "refresh_token",
    refreshToken: required(params, "refresh_token"),
    scope: optional(params, "scope"),
  }),
  client_credentials: (params) => ({ grantType: "client_credentials", scope: optional(params, "scope") }),
  [JWT_BEARER_GRANT]: (params) => ({
    grantType: JWT_BEARER_GRANT,
    assertion: required(params, "assertion"),
    scope: optional(params, "scope"),
  }),
  [TOKEN_EXCHANGE_GRANT]: readTokenExchange,
  [DEVICE_CODE_GRANT]: (params) => ({ grantType: DEVICE_CODE_GRANT, deviceCode: required(params, "device_code") }),
};

const isGrantType = (value: string): value is GrantType => Object.hasOwn(READERS, value);

export function validateTokenRequest(params: Parameters, client: ClientWithSecrets): TokenRequest {
  const grantType = required(params, "grant_type");
  if (!isGrantType(grantType))
    throw new OAuthError("unsupported_grant_type", `grant_type "${grantType}" is not supported`);
  if (!client.grantTypes.includes(grantType))
    throw unauthorizedClient(`this client may not use grant_type "${grantType}"`);
  if (grantType === "client_credentials" && client.tokenEndpointAuthMethod === "none")
    throw unauthorizedClient("client_credentials is for confidential clients only");
  return READERS[grantType](params);
}
