/**
 * The mail outbox (`outbox_messages`): messages are written inside the transaction of the change that causes them
 * (lib/store/mail-transaction.ts), claimed in batches by a worker (a claim holds them until `claimedUntil`, so that a
 * crashed worker's messages are taken again later), and marked sent, rescheduled or failed by the claim that holds
 * them. Queued mail is counted for the metrics.
 */
import type { Db, DbTransaction } from "@/lib/db/prisma";
import { countQueuedMail } from "@/lib/observability/metrics";

export type OutboxStatus = "queued" | "sent" | "failed";

import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import { recordAuditEvent } from "@/lib/store/audit-store";

export interface ClaimedMessage {
  id: string;
  kind: string;
  language: string;
  recipient: string;
  subject: string;
  sealedBody: string | null;
  attempts: number;
  claimToken: string | null;
}

export interface ListedOutboxMessage {
  id: string;
  kind: string;
  recipient: string;
  language: string;
  subject: string;
  sealedBody: string | null;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

export interface OutboxStore {
  /**
   * Claims up to `limit` queued messages that are due and held by no live claim (counting an attempt); a
   * concurrent worker's claim of the same messages takes none of them. `kinds`: only messages of these kinds;
   * `exceptKinds`: none of these (the worker's lanes: mail apart from webhooks).
   */
  claimDue(claim: OutboxClaim): Promise<ClaimedMessage[]>;
  /** Accepted by the mail server: the body, which may hold a one-time link, is erased. */
  markSent(message: ClaimedMessage, now: Date): Promise<void>;
  /** A deferred mail that turned out to have nothing to send (the account does not exist): it leaves no trace. */
  drop(message: ClaimedMessage): Promise<void>;
  /**
   * Not delivered this time: tried again from `nextAttemptAt`, or never again when `failed` (the body erased, unless
   * `keepBody` says it holds nothing that works only once).
   */
  markUndelivered(message: ClaimedMessage, outcome: UndeliveredOutcome): Promise<void>;
  /** The newest messages first, for /admin/outbox. */
  list(limit: number): Promise<ListedOutboxMessage[]>;
  /** A page of messages, newest first (then by id, descending), after `after`'s position; a status filters them. */
  page(query: OutboxPageQuery): Promise<ListedOutboxMessage[]>;
  find(id: string): Promise<ListedOutboxMessage | null>;
  /**
   * Queues a failed message again, due now with a fresh count of attempts, if it is still failed with this body (a
   * concurrent retry or erasure wins); whether it was.
   */
  requeue(id: string, sealedBody: string, now: Date, audit?: AuditEvent): Promise<boolean>;
  /** How many messages are in each state. */
  count(): Promise<Record<OutboxStatus, number>>;
  /** When the oldest message still waiting to be sent (queued, due or not) was written; null when none waits. */
  oldestWaitingSince(): Promise<Date | null>;
  /**
   * Queues one message on its own (mail that is not part of a change, such as a deferred reset request), with the
   * audit event of the action that sends it, if any; its id.
   */
  queue(message: NewOutboxMessage, now: Date, audit?: AuditEvent): Promise<string>;
}

interface UndeliveredOutcome {
  failed: boolean;
  lastError: string;
  nextAttemptAt: Date;
  keepBody?: boolean;
}

export interface OutboxPageQuery {
  status?: OutboxStatus;
  /** the position of the last message of the previous page */
  after?: { createdAt: Date; id: string };
  limit: number;
}

const unclaimed = (now: Date) => ({ OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] });

interface OutboxClaim {
  token: string;
  limit: number;
  now: Date;
  holdUntil: Date;
  kinds?: readonly string[];
  exceptKinds?: readonly string[];
}

const kindFilter = ({ kinds, exceptKinds }: OutboxClaim) =>
  kinds || exceptKinds?.length
    ? { kind: { ...(kinds ? { in: [...kinds] } : {}), ...(exceptKinds?.length ? { notIn: [...exceptKinds] } : {}) } }
    : {};

async function claimDueMessages(db: Db, claim: OutboxClaim): Promise<ClaimedMessage[]> {
  const kinds = kindFilter(claim);
  const due = await db.outboxMessage.findMany({
    where: { status: "queued", nextAttemptAt: { lte: claim.now }, ...kinds, ...unclaimed(claim.now) },
    orderBy: { nextAttemptAt: "asc" },
    take: claim.limit,
    select: { id: true },
  });
  if (due.length === 0) return [];
  await db.outboxMessage.updateMany({
    where: { id: { in: due.map((message) => message.id) }, status: "queued", ...unclaimed(claim.now) },
    data: { claimedUntil: claim.holdUntil, claimToken: claim.token, attempts: { increment: 1 } },
  });
  return db.outboxMessage.findMany({
    where: { claimToken: claim.token },
    select: {
      id: true,
      kind: true,
      language: true,
      recipient: true,
      subject: true,
      sealedBody: true,
      attempts: true,
      claimToken: true,
    },
  });
}

const released = { claimedUntil: null, claimToken: null };

async function markMessageSent(db: Db, message: ClaimedMessage, now: Date): Promise<void> {
  await db.outboxMessage.updateMany({
    where: { id: message.id, claimToken: message.claimToken },
    data: { status: "sent", sentAt: now, subject: message.subject, sealedBody: null, lastError: null, ...released },
  });
}

async function dropClaimedMessage(db: Db, message: ClaimedMessage): Promise<void> {
  await db.outboxMessage.deleteMany({ where: { id: message.id, claimToken: message.claimToken } });
}

async function markMessageUndelivered(db: Db, message: ClaimedMessage, outcome: UndeliveredOutcome): Promise<void> {
  await db.outboxMessage.updateMany({
    where: { id: message.id, claimToken: message.claimToken },
    data: {
      status: outcome.failed ? "failed" : "queued",
      lastError: outcome.lastError,
      nextAttemptAt: outcome.nextAttemptAt,
      // A mail that will never leave need not keep its link.
      ...(outcome.failed && !outcome.keepBody ? { sealedBody: null } : {}),
      ...released,
    },
  });
}

const LISTED = {
  id: true,
  kind: true,
  recipient: true,
  language: true,
  subject: true,
  sealedBody: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  lastError: true,
  createdAt: true,
  sentAt: true,
} as const;

function listOutboxMessages(db: Db, limit: number): Promise<ListedOutboxMessage[]> {
  return db.outboxMessage.findMany({ orderBy: [{ createdAt: "desc" }, { id: "asc" }], take: limit, select: LISTED });
}

function pageOutboxMessages(db: Db, { status, after, limit }: OutboxPageQuery): Promise<ListedOutboxMessage[]> {
  const before = after
    ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
    : {};
  return db.outboxMessage.findMany({
    where: { ...(status ? { status } : {}), ...before },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: LISTED,
  });
}

function requeueFailedMessage(db: Db, id: string, sealedBody: string, now: Date, audit?: AuditEvent): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.outboxMessage.updateMany({
      where: { id, status: "failed", sealedBody },
      data: { status: "queued", attempts: 0, nextAttemptAt: now, ...released },
    });
    if (count > 0 && audit) await recordAuditEvent(tx, audit);
    return count > 0;
  });
}

async function countOutboxMessages(db: Db): Promise<Record<OutboxStatus, number>> {
  const [queued, sent, failed] = await Promise.all(
    (["queued", "sent", "failed"] as const).map((status) => db.outboxMessage.count({ where: { status } })),
  );
  return { queued, sent, failed };
}

/** Erases the mail to an address (a user's personal data, `users remove`). */
export async function eraseMailTo(tx: Pick<DbTransaction, "outboxMessage">, recipient: string): Promise<void> {
  await tx.outboxMessage.deleteMany({ where: { recipient } });
}

async function oldestWaitingSince(db: Db): Promise<Date | null> {
  const oldest = await db.outboxMessage.findFirst({
    where: { status: "queued" },
    orderBy: { createdAt: "asc" },
    select: { createdAt: true },
  });
  return oldest?.createdAt ?? null;
}

async function createOutboxMessage(db: Db, message: NewOutboxMessage, now: Date, audit?: AuditEvent): Promise<string> {
  const { id } = await db.$transaction(async (tx) => {
    const created = await tx.outboxMessage.create({
      data: { ...message, nextAttemptAt: now, createdAt: now },
      select: { id: true },
    });
    if (audit) await recordAuditEvent(tx, { ...audit, details: { ...audit.details, messageId: created.id } });
    return created;
  });
  countQueuedMail([message.kind]);
  return id;
}

export function prismaOutboxStore(db: Db): OutboxStore {
  return {
    claimDue: (claim) => claimDueMessages(db, claim),
    markSent: (message, now) => markMessageSent(db, message, now),
    drop: (message) => dropClaimedMessage(db, message),
    markUndelivered: (message, outcome) => markMessageUndelivered(db, message, outcome),
    list: (limit) => listOutboxMessages(db, limit),
    page: (query) => pageOutboxMessages(db, query),
    find: (id) => db.outboxMessage.findUnique({ where: { id }, select: LISTED }),
    requeue: (id, sealedBody, now, audit) => requeueFailedMessage(db, id, sealedBody, now, audit),
    count: () => countOutboxMessages(db),
    oldestWaitingSince: () => oldestWaitingSince(db),
    queue: (message, now, audit) => createOutboxMessage(db, message, now, audit),
  };
}
