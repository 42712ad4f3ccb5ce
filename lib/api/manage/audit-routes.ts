/**
 * /manage/v1/audit-events: the audit trail for an operator's management client (manage.audit.read), with the audit
 * page's filters and rights (lib/rights/operator-audit.ts). A JSON page of at most 1,000 events with a cursor, and the
 * export: JSON Lines (one event a line), streamed, at most 10,000 events a response, the rest at the URL of its
 * `Link: <…>; rel="next"` header (absent at the end). Both read newest first by (occurred_at, id), and a cursor holds
 * the filters it was made for.
 */
import { encodeCursor } from "@/lib/api/cursor";
import { pageQuery, pageResponse, type ManageCall, type ManageRoute } from "@/lib/api/manage/manage-call";
import { manageOperation } from "@/lib/api/manage/manage-openapi";
import { cursorParameter, ref } from "@/lib/api/openapi-schemas";
import {
  auditEventJson,
  AuditFilterError,
  positionOf,
  positionText,
  type AuditFilterInput,
} from "@/lib/admin/audit-query";
import { ApiProblem } from "@/lib/errors/api-problem";
import { managementApiResource } from "@/lib/oauth/resource-indicators";
import { auditEventsFor, auditExportFor } from "@/lib/rights/operator-audit";
import type { RecordedAuditEvent } from "@/lib/store/models/audit-event";

const READ = ["manage.audit.read"];
const FILTERS = ["actor", "companyId", "kind", "from", "to"];
const MAX_PAGE = 1000;
const MAX_EXPORT = 10_000;
/** The export hands the stream this much text at a time (lines are never split). */
const EXPORT_CHUNK_CHARS = 64 * 1024;

const inputOf = (filters: Map<string, string>): AuditFilterInput => ({
  actor: filters.get("actor"),
  company: filters.get("companyId"),
  kind: filters.get("kind"),
  from: filters.get("from"),
  to: filters.get("to"),
});

/** The page's or export's query: its filters, its size and where it starts (a cursor naming no event is a 400). */
function auditQuery(call: ManageCall, list: string, limits: { max: number; default: number }) {
  const { filters, page, cursorList } = pageQuery(call, list, FILTERS, limits);
  const olderThan = page.after === undefined ? undefined : positionOf(page.after);
  if (page.after !== undefined && !olderThan)
    throw new ApiProblem("bad-request", "The cursor is not one this API handed out; start again without it.");
  return { filters, input: inputOf(filters), page, cursorList, olderThan };
}

async function refusingBadFilters<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AuditFilterError) throw new ApiProblem("bad-request", error.message);
    throw error;
  }
}

async function listAuditEvents(call: ManageCall): Promise<Response> {
  const { input, page, cursorList, olderThan } = auditQuery(call, "audit-events", { max: MAX_PAGE, default: 100 });
  const found = await refusingBadFilters(auditEventsFor(call.actor, input, { take: page.limit + 1, olderThan }));
  return pageResponse(call, cursorList, page, found, positionText, auditEventJson);
}

/**
 * The events as JSON Lines, read as the client takes them (the stream's pull), so that memory stays small. Every line
 * ends with a line break: a body that does not was cut off (the database failed after the headers went out).
 */
function jsonLines(events: AsyncIterable<RecordedAuditEvent>): ReadableStream<Uint8Array> {
  const iterator = events[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      let text = "";
      while (text.length < EXPORT_CHUNK_CHARS) {
        const { value, done } = await iterator.next();
        if (done) {
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += `${JSON.stringify(auditEventJson(value))}\n`;
      }
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

async function exportAuditEvents(call: ManageCall): Promise<Response> {
  const limits = { max: MAX_EXPORT, default: MAX_EXPORT };
  const { filters, input, page, cursorList, olderThan } = auditQuery(call, "audit-events/export", limits);
  const slice = await refusingBadFilters(auditExportFor(call.actor, input, { take: page.limit, olderThan }));
  const headers: Record<string, string> = { "Content-Type": "application/x-ndjson", "Cache-Control": "no-store" };
  if (slice.next) {
    const next = new URLSearchParams([...filters].sort());
    if (call.url.searchParams.has("limit")) next.set("limit", String(page.limit));
    next.set("cursor", encodeCursor(call.context.config.secretKey, cursorList, positionText(slice.next)));
    headers.Link = `<${managementApiResource(call.context.config)}/audit-events/export?${next}>; rel="next"`;
  }
  return new Response(jsonLines(slice.events), { headers });
}

const FILTER_PARAMETERS = [
  {
    name: "actor",
    in: "query",
    description: "A user id or a person's email, or a client id: the client that acted or the one the event concerns",
    schema: { type: "string", maxLength: 200 },
  },
  {
    name: "companyId",
    in: "query",
    description: "The company the event concerns",
    schema: { type: "string", pattern: "^[A-Za-z0-9._-]{1,64}$" },
  },
  {
    name: "kind",
    in: "query",
    description: 'An event type (user.deactivated), or the start of types ending in "." (user.)',
    schema: { type: "string", maxLength: 64 },
  },
  ...["from", "to"].map((name) => ({
    name,
    in: "query",
    description: `${name === "from" ? "From" : "Until (not including)"} an RFC 3339 date-time; a day (2026-05-31, UTC) counts whole`,
    schema: { type: "string", maxLength: 40 },
  })),
];

function exportOperation(): Record<string, unknown> {
  const operation = manageOperation({
    operationId: "exportAuditEvents",
    summary: "The audit events as JSON Lines, newest first; follow the Link header's rel=next until there is none",
    parameters: [
      ...FILTER_PARAMETERS,
      { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: MAX_EXPORT, default: MAX_EXPORT } },
      { ...cursorParameter, description: "As the Link header of the previous response gave it" },
    ],
  });
  const ok = {
    description: "One event a line (JSON Lines); at most `limit`",
    headers: {
      Link: {
        description: 'rel="next": the URL of the following events, with the same filters; absent after the last',
        required: false,
        schema: { type: "string" },
      },
    },
    content: { "application/x-ndjson": { schema: ref("AuditEvent") } },
  };
  return { ...operation, responses: { "200": ok, ...(operation.responses as object) } };
}

export const AUDIT_ROUTES: readonly ManageRoute[] = [
  {
    method: "GET",
    path: "/manage/v1/audit-events",
    scopes: READ,
    handle: listAuditEvents,
    operation: manageOperation({
      operationId: "listAuditEvents",
      summary: "The audit events, newest first, filtered by actor, company, kind and time",
      parameters: FILTER_PARAMETERS,
      page: { item: "AuditEvent", max: MAX_PAGE, default: 100 },
    }),
  },
  {
    method: "GET",
    path: "/manage/v1/audit-events/export",
    scopes: READ,
    handle: exportAuditEvents,
    operation: exportOperation(),
  },
];

const optionalText = { type: ["string", "null"] };

export const AUDIT_SCHEMAS = {
  AuditEvent: {
    type: "object",
    required: [
      "id",
      "occurred_at",
      "type",
      "user_id",
      "client_id",
      "company_id",
      "by_client_id",
      "ip_address",
      "details",
    ],
    additionalProperties: false,
    properties: {
      id: { type: "string" },
      occurred_at: { type: "string", format: "date-time" },
      type: { type: "string", description: "sign_in.succeeded, user.deactivated, client.approved …" },
      user_id: { ...optionalText, description: "The person who acted (or signed in)" },
      client_id: { ...optionalText, description: "The client the event concerns" },
      company_id: { ...optionalText, description: "The company the event concerns" },
      by_client_id: { ...optionalText, description: "The management API client whose call it was" },
      ip_address: optionalText,
      details: { type: "object", description: "What else the event recorded; its members depend on the type" },
    },
  },
};
