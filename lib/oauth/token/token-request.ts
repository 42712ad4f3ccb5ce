/**
 * Validates a token request (RFC 6749 §4.1.3, §4.4.2, §6): the grant type is known and allowed for the client, and
 * the parameters its grant requires are there. The grants (grants/) then only process the typed request.
 */
import type { ClientWithSecrets } from "@/lib/oauth/clients/client-store";
import { invalidRequest, OAuthError, unauthorizedClient } from "@/lib/oauth/errors";
import { optional, type Parameters } from "@/lib/oauth/request-parameters";

export type TokenRequest =
  | { grantType: "authorization_code"; code: string; redirectUri: string; codeVerifier?: string }
  | { grantType: "refresh_token"; refreshToken: string; scope?: string }
  | { grantType: "client_credentials"; scope?: string };

export type GrantType = TokenRequest["grantType"];

function required(params: Parameters, name: string): string {
  const value = optional(params, name);
  if (value === undefined) throw invalidRequest(`${name} is missing`);
  return value;
}

const READERS: { [G in GrantType]: (params: Parameters) => Extract<TokenRequest, { grantType: G }> } = {
  authorization_code: (params) => ({ grantType: "authorization_code", code: required(params, "code"), redirectUri: required(params, "redirect_uri"), codeVerifier: optional(params, "code_verifier") }),
  refresh_token: (params) => ({ grantType: "refresh_token", refreshToken: required(params, "refresh_token"), scope: optional(params, "scope") }),
  client_credentials: (params) => ({ grantType: "client_credentials", scope: optional(params, "scope") }),
};

const isGrantType = (value: string): value is GrantType => Object.hasOwn(READERS, value);

export function validateTokenRequest(params: Parameters, client: ClientWithSecrets): TokenRequest {
  const grantType = required(params, "grant_type");
  if (!isGrantType(grantType)) throw new OAuthError("unsupported_grant_type", `grant_type "${grantType}" is not supported`);
  if (!client.grantTypes.includes(grantType)) throw unauthorizedClient(`this client may not use grant_type "${grantType}"`);
  if (grantType === "client_credentials" && client.tokenEndpointAuthMethod === "none") throw unauthorizedClient("client_credentials is for confidential clients only");
  return READERS[grantType](params);
}
