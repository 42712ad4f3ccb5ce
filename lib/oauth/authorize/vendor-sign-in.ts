/**
 * Sign-ins to a software vendor's application that only the vendor's own people may make: its sandbox while it waits
 * for approval (lib/store/models/sandbox-client.ts), and "Try sign-in" on the partner portal, which runs the code flow
 * with PKCE through a redirect URI OptiGate owns (ENDPOINTS.developerTrialCallback). That redirect URI is accepted for
 * vendors' applications only, and a code issued for it is redeemed only by OptiGate's callback, never at the token
 * endpoint, so the application itself cannot use it.
 */
import { ENDPOINTS } from "@/lib/http/paths";
import { invalidClient, invalidRequest, invalidScope, OAuthError } from "@/lib/errors/oauth-error";
import type { ClientWithSecrets } from "@/lib/store/models/client";

export const trialRedirectUri = (publicUrl: string) => `${publicUrl}${ENDPOINTS.developerTrialCallback}`;

/** The try-it redirect URI, for an application a vendor registered. */
export const isTrialRedirect = (client: ClientWithSecrets, uri: string, publicUrl: string) =>
  client.ownerCompanyId !== null && uri === trialRedirectUri(publicUrl);

/** A try-it request is the code flow with PKCE, answered in the query, as OptiGate's callback expects. */
export function checkTrialRequest(request: { responseType: string; codeChallenge?: string }, responseMode: string) {
  if (request.responseType !== "code" || responseMode !== "query" || request.codeChallenge === undefined)
    throw invalidRequest("OptiGate's try-it redirect URI takes the code flow with PKCE, answered in the query");
}

/** A sandbox asks for no more than the sandbox allows: the rest of what the application asks for is left out. */
export function sandboxScopes(client: ClientWithSecrets, scopes: string[]): string[] {
  if (!client.sandbox) return scopes;
  const kept = scopes.filter((scope) => client.allowedScopes.includes(scope));
  if (kept.length === 0)
    throw invalidScope("an application waiting for approval may ask only for openid profile email");
  return kept;
}

/** Only the vendor's own people may sign in to its sandbox, or try its application: the refusal for anyone else. */
export function outsideVendor(
  request: { client: ClientWithSecrets; trial?: true },
  user: { company: { id: string } },
): OAuthError | undefined {
  const { client } = request;
  if (!(client.sandbox || request.trial) || user.company.id === client.ownerCompanyId) return undefined;
  return new OAuthError(
    "access_denied",
    client.sandbox
      ? "this application waits for approval: until then only people of the company that registered it may sign in"
      : "only people of the company that registered this application may try it",
  );
}

/** An application waiting for approval is a client only for its sandbox's code flow (RFC 7591 secrets too). */
export function refuseSandboxBeyondCodeFlow(client: ClientWithSecrets, grantType: string | undefined): void {
  if (client.sandbox && grantType !== "authorization_code")
    throw invalidClient("the client is waiting for approval: until then it may only redeem sandbox sign-ins");
}
