/**
 * What software vendors register themselves (the partner portal, RFC 7591/7592): the operator's initial access tokens
 * (`initial_access_tokens`, only their SHA-256 kept), the platform scopes a vendor may ask for, and the vendor's
 * applications in `clients` with their status (pending, approved, rejected), changes waiting for approval and the
 * hash of their registration access token. Each change is one transaction with its audit event.
 */
import type { Db } from "@/lib/db/prisma";
import type { Client } from "@/lib/db/rows";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import type { ClientRegistration } from "@/lib/store/models/client";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import { clientRowData, forgetClient } from "@/lib/store/client-store";
import { clientIdTaken } from "@/lib/store/client-registry-store";

export async function storeInitialAccessToken(
  db: Db,
  token: { companyId: string; tokenHash: string; expiresAt: Date },
): Promise<string> {
  return (await db.initialAccessToken.create({ data: token, select: { id: true } })).id;
}

/** The vendor company of a current (unrevoked, unexpired) initial access token, if it is active. */
export async function findInitialAccessTokenCompany(db: Db, tokenHash: string, now = new Date()) {
  const token = await db.initialAccessToken.findUnique({ where: { tokenHash } });
  if (!token || token.revokedAt || token.expiresAt <= now) return null;
  const company = await db.company.findUnique({ where: { id: token.companyId } });
  return company?.active && company.kind === "software_vendor" ? company : null;
}

/** Revokes an initial access token by id; false when there is no such unrevoked token. */
export async function revokeInitialAccessToken(db: Db, id: string, now = new Date()): Promise<boolean> {
  return (
    (await db.initialAccessToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } })).count === 1
  );
}

export async function storePartnerScopes(db: Db, companyId: string, scopes: string[]): Promise<boolean> {
  const updated = await db.company.updateMany({
    where: { id: companyId, kind: "software_vendor" },
    data: { partnerScopes: JSON.stringify(scopes) },
  });
  return updated.count === 1;
}

/**
 * Registers a vendor's application as pending: the row exists (the id is taken), the protocol does not see it.
 * "taken" when the id is another client's or a person's already, also when a concurrent registration took it first; "too_many"
 * when the vendor has `limit` applications already.
 */
export async function insertPendingClient(
  db: Db,
  registration: ClientRegistration & { id: string },
  owner: { companyId: string; registrationTokenHash: string; limit: number },
  by?: string,
): Promise<Client | "taken" | "too_many"> {
  try {
    return await db.$transaction(async (tx) => {
      if (await clientIdTaken(tx, registration.id)) return "taken" as const;
      if ((await tx.client.count({ where: { ownerCompanyId: owner.companyId } })) >= owner.limit)
        return "too_many" as const;
      const row = await tx.client.create({
        data: {
          id: registration.id,
          ...clientRowData(registration),
          status: "pending",
          ownerCompanyId: owner.companyId,
          registrationTokenHash: owner.registrationTokenHash,
        },
      });
      await recordAuditEvent(tx, {
        type: "client.registered",
        userId: by,
        clientId: registration.id,
        details: { kind: registration.kind, owner: owner.companyId, status: "pending" },
      });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return "taken";
    throw error;
  }
}

/** The client a registration access token belongs to. */
export function findClientByRegistrationToken(db: Db, tokenHash: string) {
  return db.client.findUnique({ where: { registrationTokenHash: tokenHash } });
}

/**
 * A vendor's change to its application: a pending (or rejected) registration is replaced and pending again; an
 * approved one keeps working as it is while the change waits as `pendingMetadata`.
 */
export async function storePartnerChange(
  db: Db,
  client: Client,
  change: { registration: ClientRegistration; metadata: Record<string, unknown> },
  by?: string,
): Promise<Client> {
  const data =
    client.status === "approved"
      ? { pendingMetadata: JSON.stringify(change.metadata) }
      : { ...clientRowData(change.registration), status: "pending", pendingMetadata: null, reviewNote: null };
  return db.$transaction(async (tx) => {
    const updated = await tx.client.update({ where: { id: client.id }, data });
    await recordAuditEvent(tx, { type: "client.updated", userId: by, clientId: client.id, details: { pending: true } });
    return updated;
  });
}

/**
 * The operator's decision on a pending registration or change, as it stood at `version` (the row's `updatedAt` when
 * it was read): null when there is nothing waiting, "changed" when the vendor changed it since (the decision would
 * apply to something the operator did not see).
 */
export async function storeReview(
  db: Db,
  { clientId, version }: { clientId: string; version: Date },
  decision: { approved: true; registration?: ClientRegistration } | { approved: false; note: string },
  mail: NewOutboxMessage[],
  by?: string,
): Promise<Client | null | "changed"> {
  const outcome = await db.$transaction(async (tx) => {
    const client = await tx.client.findUnique({ where: { id: clientId } });
    if (!client || (client.status !== "pending" && client.pendingMetadata === null)) return null;
    if (client.updatedAt.getTime() !== version.getTime()) return "changed" as const;
    const data = decision.approved
      ? {
          ...(decision.registration ? clientRowData(decision.registration) : {}),
          status: "approved",
          pendingMetadata: null,
          reviewNote: null,
        }
      : client.status === "approved"
        ? { pendingMetadata: null, reviewNote: decision.note }
        : { status: "rejected", reviewNote: decision.note };
    // Guarded by the version, so that a change committed after the read above is not approved unseen.
    const guarded = await tx.client.updateMany({ where: { id: clientId, updatedAt: version }, data });
    if (guarded.count === 0) return "changed" as const;
    const updated = await tx.client.findUniqueOrThrow({ where: { id: clientId } });
    const now = new Date();
    if (mail.length > 0)
      await tx.outboxMessage.createMany({ data: mail.map((m) => ({ ...m, nextAttemptAt: now, createdAt: now })) });
    await recordAuditEvent(tx, {
      type: decision.approved ? "client.approved" : "client.rejected",
      userId: by,
      clientId,
      details: decision.approved ? {} : { note: decision.note },
    });
    return updated;
  });
  forgetClient(clientId);
  return outcome;
}

/** A client's row as the operator reviews it, whatever its status. */
export function findClientRow(db: Db, clientId: string): Promise<Client | null> {
  return db.client.findUnique({ where: { id: clientId } });
}

/** A software vendor with the platform scopes it may ask for; null for any other company or none. */
export async function findPartner(
  db: Db,
  companyId: string,
): Promise<{ id: string; partnerScopes: string[]; active: boolean } | null> {
  const company = await db.company.findUnique({ where: { id: companyId } });
  if (!company || company.kind !== "software_vendor") return null;
  return { id: company.id, partnerScopes: JSON.parse(company.partnerScopes) as string[], active: company.active };
}

/** Where a client stands with the operator: for the operator's pages. */
export interface ClientReviewState {
  status: string;
  /** the software vendor that registered it, with its name */
  owner: { id: string; name: string } | null;
  /** the RFC 7591 metadata of an approved client's change that waits, as JSON text */
  pendingMetadata: string | null;
  reviewNote: string | null;
  /** when the row last changed: what an operator's decision refers to */
  version: string;
}

/** The review state of the given clients (or of all), by client id. */
export async function findClientReviewStates(db: Db, clientIds?: string[]): Promise<Map<string, ClientReviewState>> {
  const rows = await db.client.findMany({
    where: clientIds ? { id: { in: clientIds } } : {},
    select: { id: true, status: true, ownerCompanyId: true, pendingMetadata: true, reviewNote: true, updatedAt: true },
  });
  const ownerIds = [...new Set(rows.flatMap((row) => (row.ownerCompanyId ? [row.ownerCompanyId] : [])))];
  const owners = await db.company.findMany({ where: { id: { in: ownerIds } }, select: { id: true, name: true } });
  const ownerOf = new Map(owners.map((owner) => [owner.id, owner]));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        status: row.status,
        owner: row.ownerCompanyId ? (ownerOf.get(row.ownerCompanyId) ?? null) : null,
        pendingMetadata: row.pendingMetadata,
        reviewNote: row.reviewNote,
        version: row.updatedAt.toISOString(),
      },
    ]),
  );
}

/** A software vendor's applications, whatever their status, by name of id. */
export function listPartnerClients(db: Db, companyId: string): Promise<Client[]> {
  return db.client.findMany({ where: { ownerCompanyId: companyId }, orderBy: { id: "asc" } });
}

/** Who hears about a vendor's applications: its active administrators and developers, with their language. */
export function findVendorDevelopers(db: Db, companyId: string) {
  return db.user.findMany({
    where: { companyId, active: true, role: { in: ["admin", "developer"] } },
    select: { email: true, preferredLanguage: true },
  });
}

/** Vendors' active secrets that expire before `until` and whose developers were not told yet, with their client. */
export function findSecretsExpiringSoon(db: Db, now: Date, until: Date, limit: number) {
  return db.clientSecret.findMany({
    where: {
      disabledAt: null,
      expiryNoticeSentAt: null,
      expiresAt: { gt: now, lte: until },
      client: { ownerCompanyId: { not: null }, status: "approved" },
    },
    select: {
      id: true,
      description: true,
      expiresAt: true,
      client: { select: { id: true, names: true, ownerCompanyId: true } },
    },
    take: limit,
  });
}

/** Marks the secret's developers told, with the mail that tells them, once (a concurrent run finds it marked). */
export async function storeExpiryNotice(
  db: Db,
  secretId: string,
  mail: NewOutboxMessage[],
  now: Date,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const marked = await tx.clientSecret.updateMany({
      where: { id: secretId, expiryNoticeSentAt: null },
      data: { expiryNoticeSentAt: now },
    });
    if (marked.count === 0) return false;
    if (mail.length > 0)
      await tx.outboxMessage.createMany({ data: mail.map((m) => ({ ...m, nextAttemptAt: now, createdAt: now })) });
    return true;
  });
}
