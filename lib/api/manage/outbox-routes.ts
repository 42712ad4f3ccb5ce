/**
 * /manage/v1/outbox: the mail outbox as the operator's outbox page shows it (lib/rights/operator-outbox.ts), for an
 * operator's management client: the messages a page at a time with their delivery state, never a body (it may hold a
 * one-time link); a failed message queued again; a test mail. Which failed messages can be sent again is decided in
 * lib/admin/outbox-actions.ts: those whose text was kept (no one-time link in it); the others are a 409 saying why.
 */
import { onlyMembers, queryParameters, readJsonObject } from "@/lib/api/request-input";
import {
  pageQuery,
  pageResponse,
  representationResponse,
  type ManageCall,
  type ManageRoute,
} from "@/lib/api/manage/manage-call";
import { manageOperation, pathId, writeProblems } from "@/lib/api/manage/manage-openapi";
import { json, ref } from "@/lib/api/openapi-schemas";
import { LOCALES } from "@/lib/i18n/locales";
import { ApiProblem } from "@/lib/errors/api-problem";
import { outboxPageFor, retryMailFor, sendTestMailFor, type OutboxListing } from "@/lib/rights/operator-outbox";
import type { OutboxStatus } from "@/lib/store/outbox-store";

const READ = ["manage.outbox.read"];
const WRITE = ["manage.outbox.write"];
const MAX_PAGE = 200;
const STATUSES: readonly OutboxStatus[] = ["queued", "sent", "failed"];

const shown = (message: OutboxListing) => ({
  id: message.id,
  kind: message.kind,
  recipient: message.recipient,
  language: message.language,
  subject: message.subject,
  status: message.status,
  attempts: message.attempts,
  created_at: message.createdAt.toISOString(),
  sent_at: message.sentAt?.toISOString() ?? null,
  next_attempt_at: message.status === "queued" ? message.nextAttemptAt.toISOString() : null,
  last_error: message.lastError,
  resendable: message.resendable,
});

/** A message's place in the newest-first order: when it was written, then its id. */
const positionOf = (message: OutboxListing) => `${message.createdAt.toISOString()} ${message.id}`;

function parsedPosition(key: string): { createdAt: Date; id: string } {
  const [at, id] = key.split(" ");
  return { createdAt: new Date(at), id };
}

async function listOutbox(call: ManageCall): Promise<Response> {
  const { filters, page, cursorList } = pageQuery(call, "outbox", ["status"], { max: MAX_PAGE, default: 50 });
  const status = filters.get("status");
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status))
    throw new ApiProblem("bad-request", `status must be one of ${STATUSES.join(", ")}.`);
  const found = await outboxPageFor(call.actor, {
    status: status as OutboxStatus | undefined,
    after: page.after === undefined ? undefined : parsedPosition(page.after),
    limit: page.limit + 1,
  });
  return pageResponse(call, cursorList, page, found, positionOf, shown);
}

async function retryMessage(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  return representationResponse(shown(await retryMailFor(call.actor, call.params.messageId)));
}

async function sendTestMail(call: ManageCall): Promise<Response> {
  queryParameters(call.url, []);
  const body = await readJsonObject(call.request);
  onlyMembers(body, ["to", "language"]);
  if (typeof body.to !== "string") throw new ApiProblem("bad-request", 'The body needs "to" as a string.');
  if (body.language !== undefined && typeof body.language !== "string")
    throw new ApiProblem("bad-request", "language must be a string.");
  const message = await sendTestMailFor(call.actor, body.to, body.language as string | undefined);
  // Accepted: queued, and delivered by the outbox worker when the mail server takes it.
  return representationResponse(shown(message), 202);
}

/** An operation answered with 202 and the message queued. */
function accepted(operation: Record<string, unknown>): Record<string, unknown> {
  const responses = operation.responses as Record<string, unknown>;
  return {
    ...operation,
    responses: { "202": { description: "Queued", content: json(ref("OutboxMessage")) }, ...responses },
  };
}

export const OUTBOX_ROUTES: readonly ManageRoute[] = [
  {
    method: "GET",
    path: "/manage/v1/outbox",
    scopes: READ,
    handle: listOutbox,
    operation: manageOperation({
      operationId: "listOutbox",
      summary: "The outbox, newest first, without bodies; status filters it",
      parameters: [{ name: "status", in: "query", schema: { enum: [...STATUSES] } }],
      page: { item: "OutboxMessage", max: MAX_PAGE, default: 50 },
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/outbox/{messageId}/retry",
    scopes: WRITE,
    handle: retryMessage,
    operation: manageOperation({
      operationId: "retryOutboxMessage",
      summary: "Queues a failed message again when its text was kept; one whose one-time link was erased is a conflict",
      parameters: [pathId("messageId")],
      ok: "OutboxMessage",
      notFound: true,
      problems: ["conflict"],
    }),
  },
  {
    method: "POST",
    path: "/manage/v1/outbox/test-mail",
    scopes: WRITE,
    handle: sendTestMail,
    operation: accepted(
      manageOperation({
        operationId: "sendTestMail",
        summary: "Queues a test mail to the address, in the language given (English without one)",
        body: "TestMailRequest",
        problems: writeProblems(),
      }),
    ),
  },
];

export const OUTBOX_SCHEMAS = {
  OutboxMessage: {
    type: "object",
    description: "A message's envelope and delivery state; resendable: failed, with its text kept for a retry.",
    additionalProperties: false,
    required: [
      "id",
      "kind",
      "recipient",
      "language",
      "subject",
      "status",
      "attempts",
      "created_at",
      "sent_at",
      "next_attempt_at",
      "last_error",
      "resendable",
    ],
    properties: {
      id: { type: "string" },
      kind: { type: "string" },
      recipient: { type: "string" },
      language: { type: "string" },
      subject: { type: "string", description: "Empty for a password reset, written when it is sent" },
      status: { enum: [...STATUSES] },
      attempts: { type: "integer", minimum: 0 },
      created_at: { type: "string", format: "date-time" },
      sent_at: { type: ["string", "null"], format: "date-time" },
      next_attempt_at: { type: ["string", "null"], format: "date-time" },
      last_error: { type: ["string", "null"] },
      resendable: { type: "boolean" },
    },
  },
  TestMailRequest: {
    type: "object",
    additionalProperties: false,
    required: ["to"],
    properties: {
      to: { type: "string", format: "email", maxLength: 254 },
      language: { enum: [...LOCALES] },
    },
  },
};
