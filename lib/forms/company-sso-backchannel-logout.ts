/**
 * POST /login/sso/backchannel-logout: a company's provider, server to server, sends the logout token of a person it
 * signed out (OpenID Connect Back-Channel Logout 1.0 §2.5), and the OptiGate sessions it names end
 * (lib/rights/company-upstream-logout.ts). The body is a form of at most MAX_LOGOUT_REQUEST_BYTES with one
 * `logout_token`. 200 when done, also when no session matched; 400 invalid_request when the request or the token is
 * refused (§2.8), the reason logged; neither answer is cached.
 */
import { MAX_LOGOUT_REQUEST_BYTES } from "@/lib/config/policy";
import { invalidRequest, OAuthError } from "@/lib/errors/oauth-error";
import { clientAddress } from "@/lib/http/client-address";
import { isFormRequest, readBodyText, RequestBodyError } from "@/lib/http/form-body";
import { NO_STORE_HEADERS, noStoreJson } from "@/lib/http/no-store-json";
import { logger } from "@/lib/observability/logger";
import { endUpstreamSessions } from "@/lib/rights/company-upstream-logout";
import type { ServiceContext } from "@/lib/service-context";

async function logoutTokenOf(request: Request): Promise<string> {
  if (!isFormRequest(request)) throw invalidRequest("the body must be application/x-www-form-urlencoded");
  let text: string;
  try {
    text = await readBodyText(request, MAX_LOGOUT_REQUEST_BYTES);
  } catch (error) {
    // A provider is owed a 400 for any request it cannot have answered (§2.8): a body too large included.
    if (error instanceof RequestBodyError) throw invalidRequest(error.message);
    throw error;
  }
  const tokens = new URLSearchParams(text).getAll("logout_token");
  if (tokens.length !== 1 || tokens[0] === "") throw invalidRequest("the body must hold one logout_token");
  return tokens[0];
}

export async function handleCompanySsoBackchannelLogout(request: Request, context: ServiceContext): Promise<Response> {
  try {
    const logoutToken = await logoutTokenOf(request);
    await endUpstreamSessions(context, logoutToken, {
      ipAddress: clientAddress(request, context.config.trustedProxies),
    });
    return new Response(null, { status: 200, headers: NO_STORE_HEADERS });
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    logger.info({ reason: error.description, detail: error.detail }, "company back-channel logout refused");
    return noStoreJson({ error: error.code, error_description: error.description }, error.status);
  }
}
