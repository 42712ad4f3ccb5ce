/**
 * POST /connect/register (RFC 7591) with an initial access token, and GET, PUT, DELETE on the client configuration
 * endpoint `/connect/register?client_id=<id>` (RFC 7592) with the application's registration access token. The id
 * is a query parameter, not a path segment: the path stays static, so nothing in front of the route (Next's proxy)
 * reads a body before the token is checked. Refusals answer as the RFCs say: 401 with
 * `WWW-Authenticate: Bearer error="invalid_token"` for a missing, expired, revoked or foreign token, 400 with
 * `invalid_client_metadata` or `invalid_redirect_uri` (the same checks and messages as `clients add`). Registered
 * applications are pending until the operator approves them. One that authenticates with secrets gets its first in
 * the registration's answer, and more from `POST /connect/register/secrets?client_id=<id>` with the same token.
 */
import { MAX_JSON_BYTES } from "@/lib/config/policy";
import { readBodyBytes, readBodyText, RequestBodyError } from "@/lib/http/form-body";
import { noStoreJson } from "@/lib/http/no-store-json";
import {
  applicationOfRegistrationToken,
  changeRegistration,
  ClientMetadataError,
  ClientRegistryError,
  createRegistrationSecret,
  deleteRegistration,
  partnerOfInitialAccessToken,
  readRegistration,
  registerForPartner,
} from "@/lib/rights/partner-registration";
import type { ServiceContext } from "@/lib/service-context";
import { ProofOfWorkRequired } from "@/lib/errors/oauth-error";
import { clientAddress } from "@/lib/http/client-address";
import { requireClientProof } from "@/lib/proof-of-work/proof-gate";
import { recordPressure } from "@/lib/proof-of-work/pressure";

const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

const invalidToken = () =>
  noStoreJson({ error: "invalid_token" }, 401, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
const badRequest = (code: string, description: string) =>
  noStoreJson({ error: code, error_description: description }, 400);

function bearerToken(request: Request): string | undefined {
  const match = /^Bearer ([\x21-\x7e]+)$/.exec(request.headers.get("authorization") ?? "");
  return match?.[1];
}

/** The body's JSON object, or the 400 that says why there is none. */
async function metadataOf(request: Request): Promise<Record<string, unknown> | Response> {
  if (!JSON_TYPE.test(request.headers.get("content-type")?.trim() ?? ""))
    return badRequest("invalid_client_metadata", "send the client metadata as application/json");
  let value: unknown;
  try {
    value = JSON.parse(await readBodyText(request, MAX_JSON_BYTES));
  } catch (error) {
    if (error instanceof RequestBodyError || error instanceof SyntaxError)
      return badRequest("invalid_client_metadata", `the body is no JSON object of at most ${MAX_JSON_BYTES} bytes`);
    throw error;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return badRequest("invalid_client_metadata", "client metadata must be a JSON object");
  return value as Record<string, unknown>;
}

async function refusingBadMetadata(work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ClientMetadataError) return badRequest(error.code, error.message);
    throw error;
  }
}

/**
 * POST: the initial access token is checked before the body is read; under attack only with a proof of work, and a
 * token that opens nothing adds to the attack.
 */
export async function handleClientRegistration(request: Request, context: ServiceContext): Promise<Response> {
  const address = clientAddress(request, context.config.trustedProxies);
  try {
    await requireClientProof(context, "registration", address, request.headers);
  } catch (error) {
    if (!(error instanceof ProofOfWorkRequired)) throw error;
    const { code, description, challenge } = error;
    return noStoreJson({ error: code, error_description: description, proof_of_work_challenge: challenge }, 400);
  }
  const token = bearerToken(request);
  const partner = token ? await partnerOfInitialAccessToken(context, token) : null;
  if (!partner) {
    await recordPressure(context.stores.throttles, context.config.proofOfWork, { address });
    return invalidToken();
  }
  const metadata = await metadataOf(request);
  if (metadata instanceof Response) return metadata;
  return refusingBadMetadata(async () => noStoreJson(await registerForPartner(context, partner, metadata), 201));
}

/** The client id the configuration endpoint's URI names; URLSearchParams decodes leniently, never throwing. */
const clientIdOf = (request: Request): string | undefined =>
  new URL(request.url).searchParams.get("client_id")?.slice(0, 200) || undefined;

/** The application the URI's client_id names, if the request carries its registration access token. */
async function managedApplication(request: Request, context: ServiceContext) {
  const token = bearerToken(request);
  const clientId = clientIdOf(request);
  return token && clientId ? applicationOfRegistrationToken(context, clientId, token) : null;
}

/** GET, PUT and DELETE: the registration access token is checked before the body is read. */
export async function handleClientConfiguration(request: Request, context: ServiceContext): Promise<Response> {
  const application = await managedApplication(request, context);
  if (!application) return invalidToken();
  if (request.method === "GET") return noStoreJson(readRegistration(context, application));
  if (request.method === "DELETE")
    return (await deleteRegistration(context, application))
      ? new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } })
      : invalidToken();
  const metadata = await metadataOf(request);
  if (metadata instanceof Response) return metadata;
  return refusingBadMetadata(async () => noStoreJson(await changeRegistration(context, application, metadata)));
}

/**
 * POST on the configuration endpoint's `/secrets`: another secret for the application, pending or approved, to rotate
 * without downtime. No body is expected: one is read within the JSON bound and left unused, after the token check.
 */
export async function handleClientSecretCreation(request: Request, context: ServiceContext): Promise<Response> {
  const application = await managedApplication(request, context);
  if (!application) return invalidToken();
  await readBodyBytes(request, MAX_JSON_BYTES);
  try {
    return noStoreJson(await createRegistrationSecret(context, application), 201);
  } catch (error) {
    if (error instanceof ClientMetadataError) return badRequest(error.code, error.message);
    // Removed meanwhile: the token has nothing left to manage. Otherwise it was rejected, or has all the secrets it may.
    if (error instanceof ClientRegistryError)
      return error.code === "not_found" ? invalidToken() : badRequest("invalid_request", error.message);
    throw error;
  }
}
