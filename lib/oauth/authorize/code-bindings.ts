/**
 * What an authorization request binds its code to besides client and redirect URI: a PKCE challenge (RFC 7636) and a
 * DPoP key's thumbprint (RFC 9449 §10, dpop_jkt). The token endpoint checks both when the code is redeemed.
 */
import { invalidRequest } from "@/lib/errors/oauth-error";
import { isValidS256Challenge } from "@/lib/oauth/pkce";
import { firstValue as first } from "@/lib/oauth/request-parameters";
import type { ClientWithSecrets } from "@/lib/store/models/client";

const JWK_THUMBPRINT = /^[A-Za-z0-9_-]{43}$/;

/** RFC 7636: the PKCE challenge, S256 only; public clients must send one. */
export function parseCodeChallenge(client: ClientWithSecrets, params: URLSearchParams): string | undefined {
  const challenge = first(params, "code_challenge");
  const method = first(params, "code_challenge_method");
  if (challenge === undefined) {
    if (method !== undefined) throw invalidRequest("code_challenge_method was sent without code_challenge");
    if (client.tokenEndpointAuthMethod === "none")
      throw invalidRequest("public clients must use PKCE: code_challenge is missing");
    return undefined;
  }
  if (method !== "S256")
    throw invalidRequest(
      method === undefined || method === "plain"
        ? "code_challenge_method must be S256 (plain is not supported)"
        : `code_challenge_method "${method}" is not supported`,
    );
  if (!isValidS256Challenge(challenge))
    throw invalidRequest("code_challenge must be the base64url SHA-256 of the code verifier (43 characters)");
  return challenge;
}

/** RFC 9449 §10: dpop_jkt binds the code, so it belongs to the code flow. */
export function parseDpopJkt(params: URLSearchParams, responseType: string): string | undefined {
  const jkt = first(params, "dpop_jkt");
  if (jkt === undefined) return undefined;
  if (responseType !== "code") throw invalidRequest("dpop_jkt binds an authorization code: use response_type=code");
  if (!JWK_THUMBPRINT.test(jkt)) throw invalidRequest("dpop_jkt must be a base64url SHA-256 JWK thumbprint");
  return jkt;
}
