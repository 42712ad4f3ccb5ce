/**
 * /v2/supplierregistrations: list and read the registrations the caller's company is party to, request one (an
 * optician), and change one (PATCH, If-Match required) by the rules of lib/catalog/registrations.
 */
import { jsonResponse, type ApiCall } from "@/lib/api/api-call";
import { decodeCursor, encodeCursor } from "@/lib/api/cursor";
import { matchesEntityTag } from "@/lib/http/entity-tags";
import { ApiProblem, insufficientUserAuthenticationProblem } from "@/lib/errors/api-problem";
import { ACR_MFA } from "@/lib/session/authentication-level";
import type { Actor } from "@/lib/rights/actor";
import {
  onlyMembers,
  queryParameters,
  readJsonObject,
  stringListMember,
  stringMember,
  wholeNumberParameter,
} from "@/lib/api/request-input";
import {
  changeRegistration,
  getRegistration,
  listRegistrations,
  requestRegistration,
  type RegistrationChange,
  type RegistrationPosition,
  type RegistrationStatus,
  type RegistrationView,
} from "@/lib/rights/registrations";
import {
  REGISTRATION_STATUSES,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
} from "@/lib/catalog/registrations/registration-rules";

export const MAX_REGISTRATION_PAGE = 500;

function registrationJson(view: RegistrationView) {
  return {
    id: view.id,
    opticianCompanyId: view.opticianCompanyId,
    opticianName: view.opticianName,
    supplierId: view.supplierId,
    supplierName: view.supplierName,
    clientId: view.clientId,
    status: view.status,
    customerGroups: view.customerGroups,
    subscriptions: view.subscriptions,
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  };
}

/** A strong entity tag per version: it changes with every change of the registration. */
const registrationEtag = (view: RegistrationView) => `"v${view.version}"`;

const registrationUrl = (call: ApiCall, id: string) =>
  `${call.context.config.apiUrl}/v2/supplierregistrations/${encodeURIComponent(id)}`;

const isStatus = (value: unknown): value is RegistrationStatus =>
  REGISTRATION_STATUSES.includes(value as RegistrationStatus);

export async function listRegistrationsRoute(call: ApiCall): Promise<Response> {
  const query = queryParameters(call.url, ["status", "limit", "cursor"]);
  const status = query.get("status");
  if (status !== undefined && !isStatus(status))
    throw new ApiProblem("bad-request", `status must be one of ${REGISTRATION_STATUSES.join(", ")}.`);
  const limit = wholeNumberParameter("limit", query.get("limit"), {
    min: 1,
    max: MAX_REGISTRATION_PAGE,
    default: 100,
  })!;
  const list = `registrations?${status ?? ""}`;
  const cursor = query.get("cursor");
  let after: RegistrationPosition | undefined;
  if (cursor !== undefined) {
    const decoded = decodeCursor(call.context.config.secretKey, list, cursor) as {
      createdAt?: unknown;
      id?: unknown;
    } | null;
    const createdAt = new Date(typeof decoded?.createdAt === "string" ? decoded.createdAt : Number.NaN);
    if (Number.isNaN(createdAt.getTime()) || typeof decoded?.id !== "string")
      throw new ApiProblem("bad-request", "The cursor is not one this API handed out.");
    after = { createdAt, id: decoded.id };
  }
  const views = await listRegistrations(call.actor, { status, after, limit: limit + 1 });
  const page = views.slice(0, limit);
  const last = page.at(-1);
  const next =
    views.length > limit && last
      ? encodeCursor(call.context.config.secretKey, list, { createdAt: last.createdAt.toISOString(), id: last.id })
      : null;
  return jsonResponse({ items: page.map(registrationJson), next });
}

export async function getRegistrationRoute(call: ApiCall): Promise<Response> {
  queryParameters(call.url, []);
  const view = await getRegistration(call.actor, call.params.id);
  return jsonResponse(registrationJson(view), 200, { ETag: registrationEtag(view) });
}

export async function requestRegistrationRoute(call: ApiCall): Promise<Response> {
  queryParameters(call.url, []);
  requireStrongSignIn(call.actor);
  const body = await readJsonObject(call.request);
  onlyMembers(body, ["supplierId", "clientId", "catalogs"]);
  const request = {
    supplierId: stringMember(body, "supplierId"),
    clientId: stringMember(body, "clientId"),
    catalogs: body.catalogs === undefined ? [] : stringListMember(body, "catalogs"),
  };
  const view = await requestRegistration(call.actor, request);
  return jsonResponse(registrationJson(view), 201, {
    Location: registrationUrl(call, view.id),
    ETag: registrationEtag(view),
  });
}

function subscriptionList(value: unknown): { catalogId: string; status: SubscriptionStatus }[] {
  if (!Array.isArray(value))
    throw new ApiProblem("bad-request", `"subscriptions" must be a list of {"catalogId", "status"}.`);
  return value.map((entry, index) => {
    const where = `subscriptions[${index}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry))
      throw new ApiProblem("bad-request", `${where} must be an object {"catalogId", "status"}.`);
    const member = entry as Record<string, unknown>;
    onlyMembers(member, ["catalogId", "status"], where);
    const status = stringMember(member, "status", where);
    if (!SUBSCRIPTION_STATUSES.includes(status as SubscriptionStatus))
      throw new ApiProblem("unprocessable", `${where}.status must be ${SUBSCRIPTION_STATUSES.join(" or ")}.`);
    return { catalogId: stringMember(member, "catalogId", where), status: status as SubscriptionStatus };
  });
}

/** The change a PATCH body asks for: a status (with customer groups when it is active), or subscriptions. */
function parseRegistrationChange(body: Record<string, unknown>): RegistrationChange {
  onlyMembers(body, ["status", "customerGroups", "subscriptions"]);
  if (body.subscriptions !== undefined) {
    if (body.status !== undefined || body.customerGroups !== undefined)
      throw new ApiProblem("unprocessable", "Change the status or the subscriptions, one at a time.");
    return { subscriptions: subscriptionList(body.subscriptions) };
  }
  if (body.status === undefined)
    throw new ApiProblem("unprocessable", `The body names no change: send "status" or "subscriptions".`);
  const status = body.status;
  if (status === "active") {
    const groups = body.customerGroups ?? [];
    if (!Array.isArray(groups) || !groups.every((group) => typeof group === "number"))
      throw new ApiProblem("bad-request", `"customerGroups" must be a list of numbers.`);
    return { status, customerGroups: groups };
  }
  if (body.customerGroups !== undefined)
    throw new ApiProblem("unprocessable", `"customerGroups" goes with "status": "active" only.`);
  if (status === "rejected" || status === "withdrawn") return { status };
  throw new ApiProblem(
    "unprocessable",
    `"status" can be set to active, rejected or withdrawn (got ${JSON.stringify(status)?.slice(0, 40)}).`,
  );
}

/**
 * The version a change may apply to: undefined for `If-Match: *`; otherwise the current version when the header's
 * list names its ETag (then changed only if it is still that version). 428 without the header, 412 when it names
 * no current version.
 */
async function expectedVersion(call: ApiCall): Promise<number | undefined> {
  const header = call.request.headers.get("if-match");
  if (header === null)
    throw new ApiProblem("precondition-required", "Send If-Match with the ETag of the registration as you read it.");
  if (header.trim() === "*") return undefined;
  const current = await getRegistration(call.actor, call.params.id);
  if (!matchesEntityTag(header, registrationEtag(current), "strong"))
    throw new ApiProblem(
      "precondition-failed",
      "If-Match names no current version of this registration; read it again.",
    );
  return current.version;
}

/**
 * Where the caller's company requires a second factor, asking for or changing a registration needs a token from a sign-in at the
 * mfa level (RFC 9470): a user's token of a password alone is sent back to sign in again.
 */
function requireStrongSignIn(actor: Actor): void {
  if (actor.kind !== "token" || !actor.userId || !actor.company?.requireSecondFactor || actor.acr === ACR_MFA) return;
  throw insufficientUserAuthenticationProblem(
    "Your company requires a second factor for changes: sign in again with acr_values=urn:optigate:acr:mfa.",
    ACR_MFA,
  );
}

export async function changeRegistrationRoute(call: ApiCall): Promise<Response> {
  queryParameters(call.url, []);
  requireStrongSignIn(call.actor);
  const version = await expectedVersion(call);
  const change = parseRegistrationChange(await readJsonObject(call.request));
  const view = await changeRegistration(call.actor, call.params.id, version, change);
  return jsonResponse(registrationJson(view), 200, { ETag: registrationEtag(view) });
}
