/** Readers of RFC 7591 client metadata fields, each refusing a bad value with invalid_client_metadata. */
import { MAX_LIST_ENTRIES, MAX_URI_LENGTH } from "@/lib/config/policy";
import { ClientMetadataError } from "@/lib/admin/client-metadata-error";
import { DEFAULT_LANGUAGE_KEY, type LocalizedText } from "@/lib/i18n/localized-text";
import { redirectUriProblem, resourceUriProblem } from "@/lib/http/url-policy";

const LANGUAGE_TAG = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i;
const MAX_TEXT_LENGTH = 500;

export function fail(message: string): never {
  throw new ClientMetadataError("invalid_client_metadata", message);
}

export function optionalString(metadata: Record<string, unknown>, field: string): string | undefined {
  const value = metadata[field];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "") fail(`${field} must be a non-empty string`);
  return value;
}

export function stringList(metadata: Record<string, unknown>, field: string): string[] | undefined {
  const value = metadata[field];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string" || item === "")) {
    fail(`${field} must be an array of non-empty strings`);
  }
  const list = value as string[];
  if (list.length > MAX_LIST_ENTRIES) fail(`${field} may list at most ${MAX_LIST_ENTRIES} entries`);
  const long = list.find((item) => item.length > MAX_URI_LENGTH);
  if (long !== undefined) fail(`${field} entries must be at most ${MAX_URI_LENGTH} characters`);
  const duplicate = list.find((item, index) => list.indexOf(item) !== index);
  if (duplicate !== undefined) fail(`${field} lists "${duplicate}" twice`);
  return list;
}

/** Redirect URIs (RFC 6749 §3.1.2), each refused with invalid_redirect_uri and its index. */
export function checkUris(field: string, uris: string[], allowPrivateUseScheme: boolean): void {
  uris.forEach((uri, index) => {
    const problem = redirectUriProblem(uri, allowPrivateUseScheme);
    if (problem) throw new ClientMetadataError("invalid_redirect_uri", `${field}[${index}] "${uri}" ${problem}`);
  });
}

/** RFC 8707: the resource servers besides OptiGate's own that the client may ask tokens for. */
export function allowedResources(metadata: Record<string, unknown>): string[] {
  const resources = stringList(metadata, "allowed_resources") ?? [];
  resources.forEach((resource, index) => {
    const problem = resourceUriProblem(resource);
    if (problem) fail(`allowed_resources[${index}] "${resource}" ${problem}`);
  });
  return resources;
}

export function localizedText(metadata: Record<string, unknown>, field: string): LocalizedText {
  const text: LocalizedText = {};
  for (const [key, value] of Object.entries(metadata)) {
    const [name, tag, ...rest] = key.split("#");
    if (name !== field) continue;
    if (rest.length > 0 || (tag !== undefined && !LANGUAGE_TAG.test(tag))) fail(`${key} has an invalid language tag`);
    if (typeof value !== "string" || value.trim() === "") fail(`${key} must be a non-empty string`);
    if (value.length > MAX_TEXT_LENGTH || /[\u0000-\u001f]/.test(value)) {
      fail(`${key} must be at most ${MAX_TEXT_LENGTH} characters without control characters`);
    }
    text[tag === undefined ? DEFAULT_LANGUAGE_KEY : tag.toLowerCase()] = value.trim();
  }
  return text;
}

/**
 * `reuse` (the legacy service's sliding token) is for confidential clients only: a public client's refresh token is a bearer
 * secret on a user's device, so it is always rotated (RFC 9700 §4.14.2).
 */
export function refreshTokenPolicy(
  metadata: Record<string, unknown>,
  publicClient: boolean,
  offlineAccess: boolean,
): "reuse" | "rotate" {
  const policy = optionalString(metadata, "refresh_token_policy") ?? (publicClient ? "rotate" : "reuse");
  if (policy !== "reuse" && policy !== "rotate") fail(`refresh_token_policy must be "reuse" or "rotate"`);
  if (publicClient && policy === "reuse")
    fail(
      `refresh_token_policy "reuse" is not allowed for public clients: their refresh tokens are always rotated (RFC 9700 §4.14.2)`,
    );
  if (!publicClient && policy === "rotate" && !offlineAccess)
    fail(`refresh_token_policy applies to offline clients only`);
  return policy;
}

export function flag(metadata: Record<string, unknown>, field: string): boolean {
  const value = metadata[field] ?? false;
  if (typeof value !== "boolean") fail(`${field} must be true or false`);
  return value;
}

export const SENDER_CONSTRAINT_FIELDS = ["dpop_bound_access_tokens", "require_pushed_authorization_requests"];

/**
 * RFC 9449 §5.2 `dpop_bound_access_tokens` and RFC 9126 §6 `require_pushed_authorization_requests`. Tokens from the
 * authorization endpoint (implicit) carry no proof, and a backend client sends no authorization requests.
 */
export function senderConstraints(
  metadata: Record<string, unknown>,
  kind: string,
  grantTypes: string[],
): { dpopBoundAccessTokens: boolean; requirePushedAuthorizationRequests: boolean } {
  const dpopBoundAccessTokens = flag(metadata, "dpop_bound_access_tokens");
  if (dpopBoundAccessTokens && grantTypes.includes("implicit"))
    fail("dpop_bound_access_tokens cannot be true with the implicit grant: its tokens come without a DPoP proof");
  const requirePushedAuthorizationRequests = flag(metadata, "require_pushed_authorization_requests");
  if (requirePushedAuthorizationRequests && kind === "backend")
    fail("require_pushed_authorization_requests is for clients that send users to sign in, not backend clients");
  return { dpopBoundAccessTokens, requirePushedAuthorizationRequests };
}
