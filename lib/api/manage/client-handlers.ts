/**
 * The handlers of /manage/v1/clients (client-routes.ts): each reads the request strictly, calls the operator pages'
 * rights function (lib/rights/operator-clients.ts) and answers with the client as `clients show` prints it
 * (lib/admin/client-record.ts). Its ETag leaves out when a secret was last used, which token requests change.
 */
import { onlyMembers, queryParameters, readJsonObject } from "@/lib/api/request-input";
import {
  pageQuery,
  pageResponse,
  representationEtag,
  requireCurrent,
  type ManageCall,
} from "@/lib/api/manage/manage-call";
import { ApiProblem } from "@/lib/errors/api-problem";
import { parseInstant } from "@/lib/http/calendar-instant";
import { clientRecord } from "@/lib/admin/client-record";
import {
  addClientSecret,
  clientDetails,
  clientReviewStates,
  disableClientSecret,
  listClients,
  registerClient,
  removeClient,
  reviewClient,
  setClientSecretExpiry,
  updateClient,
  type ClientDetails,
} from "@/lib/rights/operator-clients";

const MAX_PAGE = 200;
const MAX_REASON_LENGTH = 1000;
const STATUSES = ["approved", "pending", "rejected"];
const KINDS = ["browser", "native", "web", "backend"];

const recordOf = (details: ClientDetails) => clientRecord(details.client, details.review, details.secrets);

/** What the ETag stands for: the record without when a secret was last used, which a token request changes. */
function versionOf(record: Record<string, unknown>): unknown {
  const secrets = (record.secrets ?? []) as Record<string, unknown>[];
  return { ...record, secrets: secrets.map(({ last_used_at: _used, ...secret }) => secret) };
}

function answer(record: Record<string, unknown>, status = 200, extra: Record<string, unknown> = {}, location?: string) {
  return new Response(JSON.stringify({ ...record, ...extra }), {
    status,
    headers: {
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      ETag: representationEtag(versionOf(record)),
      ...(location ? { Location: location } : {}),
    },
  });
}

async function existingClient(call: ManageCall): Promise<ClientDetails> {
  const details = await clientDetails(call.actor, call.params.clientId);
  if (!details) throw new ApiProblem("not-found", `There is no client "${call.params.clientId.slice(0, 64)}".`);
  return details;
}

const clientPath = (clientId: string) => `/manage/v1/clients/${encodeURIComponent(clientId)}`;

/** The client as it is now, answered. */
async function current(call: ManageCall, status = 200): Promise<Response> {
  return answer(recordOf(await existingClient(call)), status);
}

export async function listClientsPage(call: ManageCall): Promise<Response> {
  const { filters, page, cursorList } = pageQuery(call, "clients", ["status", "kind"], { max: MAX_PAGE, default: 50 });
  const [status, kind] = [filters.get("status"), filters.get("kind")];
  if (status !== undefined && !STATUSES.includes(status))
    throw new ApiProblem("bad-request", `status must be one of ${STATUSES.join(", ")}.`);
  if (kind !== undefined && !KINDS.includes(kind))
    throw new ApiProblem("bad-request", `kind must be one of ${KINDS.join(", ")}.`);
  const [clients, reviews] = await Promise.all([listClients(call.actor), clientReviewStates(call.actor)]);
  const found = clients
    .filter((client) => status === undefined || (reviews.get(client.id)?.status ?? "approved") === status)
    .filter((client) => kind === undefined || client.kind === kind)
    .filter((client) => page.after === undefined || client.id > page.after)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, page.limit + 1);
  return pageResponse(
    call,
    cursorList,
    page,
    found,
    (client) => client.id,
    (client) => clientRecord(client, reviews.get(client.id)),
  );
}

export async function getClient(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  return current(call);
}

export async function addClient(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const { client, secret } = await registerClient(call.actor, await readJsonObject(call.request));
  const details = (await clientDetails(call.actor, client.id))!;
  const shownOnce = secret
    ? { client_secret: secret.secret, client_secret_id: secret.secretId, client_secret_expires_at: 0 }
    : {};
  return answer(recordOf(details), 201, shownOnce, clientPath(client.id));
}

export async function replaceClient(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const details = await existingClient(call);
  const metadata = await readJsonObject(call.request);
  requireCurrent(call, versionOf(recordOf(details)), "client");
  await updateClient(call.actor, details.client.id, metadata);
  return current(call);
}

export async function deleteClient(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  await removeClient(call.actor, call.params.clientId);
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}

/**
 * Approves or rejects a vendor's application or change. With If-Match the decision is about the version read: a
 * change by the vendor since then is 412.
 */
export const reviewing = (approve: boolean) => async (call: ManageCall) => {
  queryParameters(call.url, []);
  const details = await existingClient(call);
  let reason = "";
  if (!approve) {
    const body = await readJsonObject(call.request);
    onlyMembers(body, ["reason"]);
    reason = typeof body.reason === "string" ? body.reason.trim() : "";
    if (!reason || reason.length > MAX_REASON_LENGTH)
      throw new ApiProblem(
        "unprocessable",
        `Say why the application is rejected, in 1 to ${MAX_REASON_LENGTH} characters: the software vendor reads it.`,
      );
  }
  let version: string | undefined;
  if (call.request.headers.has("if-match")) {
    requireCurrent(call, versionOf(recordOf(details)), "client");
    version = details.review?.version;
  }
  await reviewClient(call.actor, details.client.id, approve ? { approve: true } : { approve: false, reason }, version);
  return current(call);
};

/**
 * A date-time, or a day alone meaning its end (UTC), as on the operator pages and in the CLI: one that exists, within
 * the years 1…9999 (lib/http/calendar-instant.ts).
 */
function expiryOf(value: unknown): Date {
  const date = typeof value === "string" ? parseInstant(value, "last-second") : null;
  if (!date)
    throw new ApiProblem(
      "bad-request",
      "expires_at must be a date-time (RFC 3339) or a day (YYYY-MM-DD) that exists, within the years 1 to 9999.",
    );
  return date;
}

export async function addSecret(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const body = await readJsonObject(call.request);
  onlyMembers(body, ["expires_at", "description"]);
  if (body.description !== undefined && typeof body.description !== "string")
    throw new ApiProblem("bad-request", "description must be a string.");
  const expiresAt = body.expires_at === undefined ? undefined : expiryOf(body.expires_at);
  const clientId = call.params.clientId;
  const secret = await addClientSecret(call.actor, clientId, {
    expiresAt,
    description: (body.description as string | undefined) || undefined,
  });
  const shown = {
    client_id: clientId,
    secret_id: secret.secretId,
    client_secret: secret.secret,
    expires_at: expiresAt?.toISOString() ?? null,
  };
  return new Response(JSON.stringify(shown), {
    status: 201,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", Location: clientPath(clientId) },
  });
}

export async function setSecretExpiry(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const body = await readJsonObject(call.request);
  onlyMembers(body, ["expires_at"]);
  if (!("expires_at" in body)) throw new ApiProblem("bad-request", 'The body needs "expires_at" (null: never).');
  const expiresAt = body.expires_at === null ? null : expiryOf(body.expires_at);
  await setClientSecretExpiry(call.actor, call.params.clientId, call.params.secretId, expiresAt);
  return current(call);
}

export async function disableSecret(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  await disableClientSecret(call.actor, call.params.clientId, call.params.secretId);
  return current(call);
}
