/**
 * POST /connect/par (RFC 9126): a client pushes its authorization request, authenticated as at the token endpoint
 * (public clients name themselves with client_id). The request is validated as the authorization endpoint would
 * validate it, then stored; the answer is a request_uri (256 random bits, 60 s, single use, bound to the client) to
 * send the user agent to /connect/authorize with. A DPoP proof sent along binds the code to come to its key
 * (RFC 9449 §10.1), as dpop_jkt would. Pushes for public clients ask for a proof of work under attack.
 */
import {
  MAX_PUSHED_REQUEST_LENGTH,
  MAX_WAITING_PUSHED_REQUESTS,
  PUBLIC_PUSH_LIMIT,
  PUBLIC_PUSH_WIDE_LIMIT,
  PUSHED_REQUEST_LIFETIME_SECONDS,
} from "@/lib/config/policy";
import { DpopNonceError, invalidRequest, OAuthError } from "@/lib/errors/oauth-error";
import { noStoreBody } from "@/lib/http/no-store-json";
import { ENDPOINTS } from "@/lib/http/paths";
import type { ProtocolRequest, ProtocolResponse } from "@/lib/http/protocol-message";
import { AuthorizationError, validateAuthorizationRequest } from "@/lib/oauth/authorize/authorization-request";
import { REQUEST_URI_PREFIX } from "@/lib/oauth/authorize/read-authorization-request";
import { withAuthenticatedClient } from "@/lib/oauth/clients/with-authenticated-client";
import { acceptDpopProof, dpopHeader } from "@/lib/oauth/dpop/accept-dpop-proof";
import { formValues, type Parameters } from "@/lib/oauth/request-parameters";
import type { ServiceContext } from "@/lib/service-context";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { clientAddress, throttledNetwork, wideNetwork } from "@/lib/http/client-address";
import { countRequest } from "@/lib/session/request-rate";
import { requireClientProof } from "@/lib/proof-of-work/proof-gate";
import { recordPressure } from "@/lib/proof-of-work/pressure";

/** How the client authenticated: not part of the authorization request. */
const CLIENT_AUTHENTICATION = ["client_secret", "client_assertion", "client_assertion_type"];

/** The authorization request the client pushed, with its client_id, and dpop_jkt from a DPoP proof sent along. */
async function pushedParameters(
  context: ServiceContext,
  request: ProtocolRequest,
  params: Parameters,
  client: ClientWithSecrets,
): Promise<URLSearchParams> {
  if (params.has("request_uri")) throw invalidRequest("request_uri cannot be pushed: push the request's parameters");
  const pushed = new URLSearchParams([...params].filter(([name]) => !CLIENT_AUTHENTICATION.includes(name)));
  pushed.set("client_id", client.id);
  // RFC 8707 §2: every resource named, not only the first.
  pushed.delete("resource");
  for (const resource of formValues(request, "resource")) pushed.append("resource", resource);
  const proof = dpopHeader(request.headers);
  if (proof !== undefined) {
    const { jkt } = await acceptDpopProof(context, proof, {
      method: request.method,
      url: `${context.config.publicUrl}${ENDPOINTS.par}`,
    });
    if (pushed.has("dpop_jkt") && pushed.get("dpop_jkt") !== jkt)
      throw invalidRequest("dpop_jkt differs from the key of the DPoP proof");
    pushed.set("dpop_jkt", jkt);
  }
  return pushed;
}

/**
 * Anyone may push for a public client: such pushes are limited per client network and per wider network, and none
 * is stored while MAX_WAITING_PUSHED_REQUESTS wait for the client already (RFC 9126 §2.3 answers 429 Too Many
 * Requests). Confidential clients authenticate, and answer for their own pushes.
 */
async function limitAnonymousPushes(context: ServiceContext, address: string | undefined, clientId: string) {
  const network = address ?? "0.0.0.0";
  const waits = [
    await countRequest(context.stores.throttles, `par-address:${throttledNetwork(network)}`, PUBLIC_PUSH_LIMIT),
    await countRequest(context.stores.throttles, `par-network:${wideNetwork(network)}`, PUBLIC_PUSH_WIDE_LIMIT),
  ];
  const wait = Math.max(...waits);
  if (wait > 0)
    throw new OAuthError("invalid_request", `too many pushed requests from this network: try again in ${wait} s`, 429);
  if ((await context.stores.authorizationRequests.countWaiting(clientId, new Date())) >= MAX_WAITING_PUSHED_REQUESTS)
    throw new OAuthError("invalid_request", "too many pushed requests are waiting: try again in a minute", 429);
}

/** Validates the pushed request as the authorization endpoint would, and stores it. */
async function push(context: ServiceContext, request: ProtocolRequest, params: Parameters, client: ClientWithSecrets) {
  const pushed = await pushedParameters(context, request, params, client);
  const validated = await validateAuthorizationRequest(context, pushed, { beingPushed: true }).catch((error) => {
    // Errors that would have gone to the redirect URI go to the client directly.
    throw error instanceof AuthorizationError ? error.error : error;
  });
  // Anyone may push for a public client: what a push leaves in the database is bounded.
  if (JSON.stringify([...validated.parameters]).length > MAX_PUSHED_REQUEST_LENGTH)
    throw invalidRequest(`the pushed request must be at most ${MAX_PUSHED_REQUEST_LENGTH} characters`);
  const id = await context.stores.authorizationRequests.push(client.id, validated.parameters, new Date());
  return noStoreBody({ request_uri: `${REQUEST_URI_PREFIX}${id}`, expires_in: PUSHED_REQUEST_LIFETIME_SECONDS }, 201);
}

export function handlePushedAuthorizationRequest(
  request: ProtocolRequest,
  context: ServiceContext,
): Promise<ProtocolResponse> {
  return withAuthenticatedClient(request, context, async (params, client) => {
    if (client.tokenEndpointAuthMethod !== "none") return push(context, request, params, client);
    // Anyone may push for a public client: under attack only with a proof of work, and a refusal adds to the attack.
    const address = clientAddress(request, context.config.trustedProxies);
    await requireClientProof(context, "par", address, request.headers);
    await limitAnonymousPushes(context, address, client.id);
    return push(context, request, params, client).catch(async (error) => {
      // A refused push adds to the pressure; asking for a DPoP nonce is the protocol's own round trip.
      if (error instanceof OAuthError && !(error instanceof DpopNonceError))
        await recordPressure(context.stores.throttles, context.config.proofOfWork, { address });
      throw error;
    });
  });
}
