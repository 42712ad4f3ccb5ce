/**
 * Client authentication at the token, revocation and introspection endpoints (RFC 6749 §2.3): HTTP Basic with
 * form-urlencoded id and secret, the secret in the form body, a signed client assertion (private_key_jwt,
 * client-assertion.ts), or no secret for public clients. Clients with secrets may use either secret method; using
 * two methods at once is an error. Secrets are compared by hash in constant time.
 */
import { MAX_CLIENT_ID_LENGTH } from "@/lib/config/policy";
import { timingSafeEqual } from "node:crypto";
import { noteSecretUse } from "@/lib/oauth/clients/secret-use";
import { hashToken } from "@/lib/crypto/tokens";
import { isClientAuthLocked, recordClientAuthFailure } from "@/lib/oauth/clients/client-auth-throttle";
import { readClientAssertion, verifyClientAssertion } from "@/lib/oauth/clients/client-assertion";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { invalidClient, invalidRequest } from "@/lib/errors/oauth-error";
import { JWT_CLIENT_ASSERTION_TYPE } from "@/lib/oauth/grant-types";
import { optional, type Parameters } from "@/lib/oauth/request-parameters";
import type { ServiceContext } from "@/lib/service-context";
import type { HeaderReader } from "@/lib/http/protocol-message";

export interface ClientCredentials {
  clientId: string;
  secret?: string;
  /** private_key_jwt: the client assertion, whose key-free checks have passed. */
  assertion?: string;
  method: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
}

/** RFC 6749 §2.3.1: the Basic credentials are form-urlencoded before base64. */
function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, " "));
}

function readBasicCredentials(header: string): { clientId: string; secret: string } {
  const decoded = Buffer.from(header.slice("basic ".length).trim(), "base64").toString("utf8");
  const separator = decoded.indexOf(":");
  if (separator < 1) throw invalidClient("malformed HTTP Basic client credentials");
  let credentials: { clientId: string; secret: string };
  try {
    credentials = {
      clientId: formDecode(decoded.slice(0, separator)),
      secret: formDecode(decoded.slice(separator + 1)),
    };
  } catch {
    throw invalidClient("malformed HTTP Basic client credentials");
  }
  if (credentials.clientId.includes("\u0000") || credentials.secret.includes("\u0000"))
    throw invalidClient("malformed HTTP Basic client credentials");
  return credentials;
}

export function usesBasicAuthentication(request: { headers: HeaderReader }): boolean {
  return /^basic /i.test(request.headers.get("authorization") ?? "");
}

function readAssertionCredentials(
  params: Parameters,
  bodyClientId: string | undefined,
  issuer: string,
): ClientCredentials {
  const type = optional(params, "client_assertion_type");
  const assertion = optional(params, "client_assertion");
  if (type === undefined) throw invalidRequest("client_assertion_type is missing");
  if (type !== JWT_CLIENT_ASSERTION_TYPE)
    throw invalidClient(`client_assertion_type must be "${JWT_CLIENT_ASSERTION_TYPE}"`);
  if (assertion === undefined) throw invalidRequest("client_assertion is missing");
  const clientId = readClientAssertion(assertion, issuer);
  if (bodyClientId !== undefined && bodyClientId !== clientId)
    throw invalidClient("client_id differs from the client assertion's iss and sub");
  return { clientId, assertion, method: "private_key_jwt" };
}

export function readClientCredentials(
  request: { headers: HeaderReader },
  params: Parameters,
  issuer: string,
): ClientCredentials {
  const bodyClientId = optional(params, "client_id");
  const bodySecret = optional(params, "client_secret");
  if (params.has("client_assertion") || params.has("client_assertion_type")) {
    if (usesBasicAuthentication(request) || bodySecret !== undefined)
      throw invalidRequest("use one client authentication method, not a client assertion and a secret together");
    return readAssertionCredentials(params, bodyClientId, issuer);
  }
  if (usesBasicAuthentication(request)) {
    if (bodySecret !== undefined)
      throw invalidRequest("use one client authentication method, not HTTP Basic and client_secret together");
    const basic = readBasicCredentials(request.headers.get("authorization")!);
    if (bodyClientId !== undefined && bodyClientId !== basic.clientId)
      throw invalidRequest("client_id differs from the authenticated client");
    return { ...basic, method: "client_secret_basic" };
  }
  if (bodyClientId === undefined)
    throw invalidClient("client authentication is required: send client_id (and a secret for confidential clients)");
  return bodySecret === undefined
    ? { clientId: bodyClientId, method: "none" }
    : { clientId: bodyClientId, secret: bodySecret, method: "client_secret_post" };
}

/** The hash of the client's current secret that matches, compared with each in constant time; none: no match. */
function matchingSecret(client: ClientWithSecrets, secret: string, now: Date): string | undefined {
  const presented = Buffer.from(hashToken(secret));
  let matched: string | undefined;
  for (const stored of client.secrets) {
    const candidate = Buffer.from(stored.hash);
    const equal = candidate.length === presented.length && timingSafeEqual(candidate, presented);
    if (equal && (stored.expiresAt === null || stored.expiresAt > now)) matched = stored.hash;
  }
  return matched;
}

const FAILED = "client authentication failed";

/**
 * The authenticated client. An unknown client and a wrong secret get the same answer, so the endpoint tells nobody
 * which client ids exist; failed secrets count towards the throttle of the client id and caller address.
 */
export async function authenticateClient(
  context: ServiceContext,
  credentials: ClientCredentials,
  address: string | undefined,
  now = new Date(),
): Promise<ClientWithSecrets> {
  if (credentials.clientId.length > MAX_CLIENT_ID_LENGTH) throw invalidClient(FAILED);
  if (isClientAuthLocked(credentials.clientId, address, now.getTime()))
    throw invalidClient("too many failed client authentications from this address; try again in 15 minutes");
  const client = await context.stores.clients.find(credentials.clientId);
  if (credentials.assertion !== undefined) {
    try {
      await verifyClientAssertion(context, client, credentials.assertion, now);
    } catch (error) {
      await recordClientAuthFailure(context.stores.throttles, credentials.clientId, address, now);
      throw error;
    }
    return client!;
  }
  if (client?.tokenEndpointAuthMethod === "private_key_jwt") {
    if (credentials.secret !== undefined)
      await recordClientAuthFailure(context.stores.throttles, credentials.clientId, address, now);
    throw invalidClient(FAILED);
  }
  if (client?.tokenEndpointAuthMethod === "none") {
    if (credentials.secret !== undefined) throw invalidClient("this public client has no secret and must not send one");
    return client;
  }
  const matched =
    client && credentials.secret !== undefined ? matchingSecret(client, credentials.secret, now) : undefined;
  if (!client || !matched) {
    if (credentials.secret !== undefined)
      await recordClientAuthFailure(context.stores.throttles, credentials.clientId, address, now);
    throw invalidClient(FAILED);
  }
  noteSecretUse(context.stores.clients, matched, now);
  return client;
}
