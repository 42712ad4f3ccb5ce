/**
 * POST /connect/register (RFC 7591) with an initial access token, and GET, PUT, DELETE /connect/register/<client_id>
 * (RFC 7592) with the application's registration access token. Refusals answer as the RFCs say: 401 with
 * `WWW-Authenticate: Bearer error="invalid_token"` for a missing, expired, revoked or foreign token, 400 with
 * `invalid_client_metadata` or `invalid_redirect_uri` (the same checks and messages as `clients add`). Registered
 * applications are pending until the operator approves them.
 */
import { MAX_JSON_BYTES } from "@/lib/config/policy";
import { readBodyText, RequestBodyError } from "@/lib/http/form-body";
import { noStoreJson } from "@/lib/http/no-store-json";
import {
  changeRegistration,
  ClientMetadataError,
  deleteRegistration,
  readRegistration,
  registerWithInitialAccessToken,
} from "@/lib/rights/partner-registration";
import type { ServiceContext } from "@/lib/service-context";

const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;
const REGISTRATION_PATH = "/connect/register/";

const invalidToken = () =>
  noStoreJson({ error: "invalid_token" }, 401, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
const invalidMetadata = (code: string, description: string) =>
  noStoreJson({ error: code, error_description: description }, 400);

function bearerToken(request: Request): string | undefined {
  const match = /^Bearer ([\x21-\x7e]+)$/.exec(request.headers.get("authorization") ?? "");
  return match?.[1];
}

/** The body's JSON object, or the 400 that says why there is none. */
async function metadataOf(request: Request): Promise<Record<string, unknown> | Response> {
  if (!JSON_TYPE.test(request.headers.get("content-type")?.trim() ?? ""))
    return invalidMetadata("invalid_client_metadata", "send the client metadata as application/json");
  let value: unknown;
  try {
    value = JSON.parse(await readBodyText(request, MAX_JSON_BYTES));
  } catch (error) {
    if (error instanceof RequestBodyError || error instanceof SyntaxError)
      return invalidMetadata(
        "invalid_client_metadata",
        `the body is no JSON object of at most ${MAX_JSON_BYTES} bytes`,
      );
    throw error;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return invalidMetadata("invalid_client_metadata", "client metadata must be a JSON object");
  return value as Record<string, unknown>;
}

async function refusingBadMetadata(work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ClientMetadataError) return invalidMetadata(error.code, error.message);
    throw error;
  }
}

export async function handleClientRegistration(request: Request, context: ServiceContext): Promise<Response> {
  const token = bearerToken(request);
  if (!token) return invalidToken();
  const metadata = await metadataOf(request);
  if (metadata instanceof Response) return metadata;
  return refusingBadMetadata(async () => {
    const registered = await registerWithInitialAccessToken(context, token, metadata);
    return registered ? noStoreJson(registered, 201) : invalidToken();
  });
}

export async function handleClientConfiguration(request: Request, context: ServiceContext): Promise<Response> {
  const token = bearerToken(request);
  const { pathname } = new URL(request.url);
  let clientId: string;
  try {
    clientId = decodeURIComponent(pathname.slice(REGISTRATION_PATH.length));
  } catch {
    return invalidToken();
  }
  if (!token || !clientId) return invalidToken();
  if (request.method === "GET") {
    const registration = await readRegistration(context, clientId, token);
    return registration ? noStoreJson(registration) : invalidToken();
  }
  if (request.method === "DELETE")
    return (await deleteRegistration(context, clientId, token))
      ? new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } })
      : invalidToken();
  const metadata = await metadataOf(request);
  if (metadata instanceof Response) return metadata;
  return refusingBadMetadata(async () => {
    const changed = await changeRegistration(context, clientId, token, metadata);
    return changed ? noStoreJson(changed) : invalidToken();
  });
}
