/**
 * Reads an RP-Initiated Logout request (OpenID Connect RP-Initiated Logout 1.0 §2): id_token_hint, client_id,
 * post_logout_redirect_uri, state, ui_locales. The post-logout URI counts only when it exactly matches one the client
 * registered and no presented hint was bad; otherwise OptiGate never redirects.
 */
import { PAGES } from "@/lib/http/paths";
import { readIdTokenHint, type IdTokenHint } from "@/lib/oauth/id-token-hint";
import { isRegisteredUri } from "@/lib/oauth/redirect-uri-matching";
import type { ServiceContext } from "@/lib/service-context";

export { END_SESSION_PARAMETERS } from "@/lib/oauth/endsession/end-session-parameters";

export interface EndSessionRequest {
  /** undefined: no hint; null: a hint that is not a valid ID token of OptiGate (or names another client). */
  hint?: IdTokenHint | null;
  clientId?: string;
  /** The verified post-logout redirect URI, if any. */
  redirectUri?: string;
  state?: string;
  uiLocales?: string;
}

export async function readEndSessionRequest(
  context: ServiceContext,
  params: URLSearchParams,
): Promise<EndSessionRequest> {
  const value = (name: string) =>
    params.getAll(name).length === 1 && params.get(name) ? params.get(name)! : undefined;
  const rawHint = value("id_token_hint");
  const verified =
    rawHint === undefined
      ? undefined
      : await readIdTokenHint(
          rawHint,
          await context.stores.signingKeys.keySet(context.config.secretKey),
          context.config.publicUrl,
        );
  const requestedClient = value("client_id");
  // A hint must have been issued to a client that is registered (now), and to the one the request names, if any.
  const hintClient = verified ? await context.stores.clients.find(verified.clientId) : null;
  const hint =
    verified && (!hintClient || (requestedClient && requestedClient !== verified.clientId)) ? null : verified;
  const clientId = hint?.clientId ?? requestedClient;
  const requestedUri = value("post_logout_redirect_uri");
  const client = clientId && hint !== null ? (hintClient ?? (await context.stores.clients.find(clientId))) : null;
  // A sandbox's URIs are not reviewed yet: signing out never leads there (lib/store/models/sandbox-client.ts).
  const redirectUri =
    requestedUri && client && !client.sandbox && isRegisteredUri(client.postLogoutRedirectUris, requestedUri)
      ? requestedUri
      : undefined;
  return { hint, clientId, redirectUri, state: value("state"), uiLocales: value("ui_locales") };
}

/** Where to send the browser once signed out: the client's post-logout URI with state, or OptiGate's signed-out page. */
export function afterSignOut(request: EndSessionRequest): string {
  if (!request.redirectUri) return `${PAGES.signOut}?done=1`;
  const url = new URL(request.redirectUri);
  if (request.state) url.searchParams.set("state", request.state);
  return url.toString();
}
