/**
 * What software vendors register themselves (the partner portal, RFC 7591/7592): their applications in `clients` with
 * their status (pending, approved, rejected), changes waiting for approval and the hash of their registration access
 * token, besides what the operator allows them (lib/store/vendor-allowance-store.ts). Each change is one transaction
 * with its audit event.
 */
import type { Db } from "@/lib/db/prisma";
import type { Client } from "@/lib/db/rows";
import { bindDb } from "@/lib/store/bind-db";
import {
  findSecretsExpiringSoon,
  findVendorDevelopers,
  storeExpiryNotice,
  type ExpiringSecret,
} from "@/lib/store/vendor-notice-store";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import type {
  AllowanceField,
  ClientRegistration,
  PartnerApplication,
  VendorAllowance,
} from "@/lib/store/models/client";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { NewOutboxMessage } from "@/lib/store/models/outbox";
import { transactionWithMail } from "@/lib/store/mail-transaction";
import { clientRowData, forgetClient, registeredClientFromRow } from "@/lib/store/client-store";
import {
  clientIdTaken,
  insertSecret,
  type NewClientSecret,
  type StoredClientSecret,
} from "@/lib/store/client-registry-store";
import {
  findInitialAccessTokenCompany,
  findPartner,
  revokeInitialAccessToken,
  storeInitialAccessToken,
  storePartnerAllowance,
  storePartnerSandbox,
} from "@/lib/store/vendor-allowance-store";

function applicationFromRow(row: Client): PartnerApplication {
  return {
    ...registeredClientFromRow(row),
    status: row.status,
    ownerCompanyId: row.ownerCompanyId,
    pendingMetadata: row.pendingMetadata ? (JSON.parse(row.pendingMetadata) as Record<string, unknown>) : null,
    reviewNote: row.reviewNote,
  };
}

/** A vendor's application as registered, with its first secret when it was given one. */
export interface RegisteredApplication {
  application: PartnerApplication;
  secret?: StoredClientSecret;
}

/**
 * Registers a vendor's application as pending, with its first secret if given (both or neither): the row exists (the
 * id is taken), the protocol does not see it. "taken" when the id is another client's or a person's already, also
 * when a concurrent registration took it first; "too_many" when the vendor has `limit` applications already.
 */
export async function insertPendingClient(
  db: Db,
  registration: ClientRegistration & { id: string },
  owner: { companyId: string; registrationTokenHash: string; limit: number },
  by?: string,
  firstSecret?: NewClientSecret,
): Promise<RegisteredApplication | "taken" | "too_many"> {
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
        companyId: owner.companyId,
        details: { kind: registration.kind, owner: owner.companyId, status: "pending" },
      });
      const secret = firstSecret ? await insertSecret(tx, registration.id, firstSecret, by) : undefined;
      return { application: applicationFromRow(row), secret };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return "taken";
    throw error;
  }
}

/** The client a registration access token belongs to. */
async function findClientByRegistrationToken(db: Db, tokenHash: string): Promise<PartnerApplication | null> {
  const row = await db.client.findUnique({ where: { registrationTokenHash: tokenHash } });
  return row && applicationFromRow(row);
}

/**
 * A vendor's change to its application: a pending (or rejected) registration is replaced and pending again; an
 * approved one keeps working as it is while the change waits as `pendingMetadata`.
 */
async function storePartnerChange(
  db: Db,
  client: PartnerApplication,
  change: { registration: ClientRegistration; metadata: Record<string, unknown> },
  by?: string,
): Promise<PartnerApplication> {
  const data =
    client.status === "approved"
      ? { pendingMetadata: JSON.stringify(change.metadata) }
      : { ...clientRowData(change.registration), status: "pending", pendingMetadata: null, reviewNote: null };
  const changed = await db.$transaction(async (tx) => {
    const updated = await tx.client.update({ where: { id: client.id }, data });
    const event = { type: "client.updated", userId: by, clientId: client.id, details: { pending: true } } as const;
    await recordAuditEvent(tx, { ...event, companyId: client.ownerCompanyId ?? undefined });
    return applicationFromRow(updated);
  });
  // A pending registration is its vendor's sandbox: the protocol sees the change at once.
  forgetClient(client.id);
  return changed;
}

/**
 * The operator's decision on a pending registration or change, as it stood at `version` (the row's `updatedAt` when
 * it was read): null when there is nothing waiting, "changed" when the vendor changed it since (the decision would
 * apply to something the operator did not see).
 */
async function storeReview(
  db: Db,
  { clientId, version }: { clientId: string; version: Date },
  decision: { approved: true; registration?: ClientRegistration } | { approved: false; note: string },
  mail: NewOutboxMessage[],
  by?: string,
): Promise<PartnerApplication | null | "changed"> {
  const outcome = await transactionWithMail(db, async (tx, queueMail) => {
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
    await queueMail(mail, new Date());
    await recordAuditEvent(tx, {
      type: decision.approved ? "client.approved" : "client.rejected",
      userId: by,
      clientId,
      companyId: client.ownerCompanyId ?? undefined,
      details: decision.approved ? {} : { note: decision.note },
    });
    return applicationFromRow(updated);
  });
  forgetClient(clientId);
  return outcome;
}

/** A client's row as the operator reviews it, whatever its status. */
async function findApplication(db: Db, clientId: string): Promise<PartnerApplication | null> {
  const row = await db.client.findUnique({ where: { id: clientId } });
  return row && applicationFromRow(row);
}

/** Where a client stands with the operator: for the operator's pages. */
export interface ClientReviewState {
  status: string;
  /** the software vendor that registered it, with its name */
  owner: { id: string; name: string } | null;
  /** the RFC 7591 metadata of an approved client's change that waits */
  pendingMetadata: Record<string, unknown> | null;
  reviewNote: string | null;
  /** when the row last changed: what an operator's decision refers to */
  version: string;
}

/** The review state of the given clients (or of all), by client id. */
async function findClientReviewStates(db: Db, clientIds?: string[]): Promise<Map<string, ClientReviewState>> {
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
        pendingMetadata: row.pendingMetadata ? (JSON.parse(row.pendingMetadata) as Record<string, unknown>) : null,
        reviewNote: row.reviewNote,
        version: row.updatedAt.toISOString(),
      },
    ]),
  );
}

/** A software vendor's applications, whatever their status, by name of id. */
async function listPartnerClients(db: Db, companyId: string): Promise<PartnerApplication[]> {
  const rows = await db.client.findMany({ where: { ownerCompanyId: companyId }, orderBy: { id: "asc" } });
  return rows.map(applicationFromRow);
}

export interface PartnerStore {
  saveInitialAccessToken(token: { companyId: string; tokenHash: string; expiresAt: Date }): Promise<string>;
  /** The vendor company of a current (unrevoked, unexpired) initial access token, if it is active. */
  findInitialAccessTokenCompany(tokenHash: string, now?: Date): Promise<VendorAllowance | null>;
  /** Revokes an initial access token by id; false when there is no such unrevoked token. */
  revokeInitialAccessToken(id: string, now?: Date): Promise<boolean>;
  /** Sets the platform scopes or the own APIs the vendor's applications may name; false for any other company. */
  savePartnerAllowance(companyId: string, field: AllowanceField, values: string[]): Promise<boolean>;
  /** Whether the vendor's applications waiting for approval have a sandbox; false for any other company. */
  savePartnerSandbox(companyId: string, allowed: boolean): Promise<boolean>;
  /** A software vendor with what its applications may ask for; null for any other company or none. */
  findPartner(companyId: string): Promise<(VendorAllowance & { active: boolean }) | null>;
  /** A pending application, with its first secret if given, in one transaction. */
  insertPending(
    registration: ClientRegistration & { id: string },
    owner: { companyId: string; registrationTokenHash: string; limit: number },
    by?: string,
    firstSecret?: NewClientSecret,
  ): Promise<RegisteredApplication | "taken" | "too_many">;
  findByRegistrationToken(tokenHash: string): Promise<PartnerApplication | null>;
  find(clientId: string): Promise<PartnerApplication | null>;
  list(companyId: string): Promise<PartnerApplication[]>;
  saveChange(
    client: PartnerApplication,
    change: { registration: ClientRegistration; metadata: Record<string, unknown> },
    by?: string,
  ): Promise<PartnerApplication>;
  saveReview(
    reviewed: { clientId: string; version: Date },
    decision: { approved: true; registration?: ClientRegistration } | { approved: false; note: string },
    mail: NewOutboxMessage[],
    by?: string,
  ): Promise<PartnerApplication | null | "changed">;
  /** The review state of the given clients (or of all), by client id. */
  findReviewStates(clientIds?: string[]): Promise<Map<string, ClientReviewState>>;
  /** Who hears about a vendor's applications: its active administrators and developers, with their language. */
  findVendorDevelopers(companyId: string): Promise<{ email: string; preferredLanguage: string | null }[]>;
  findSecretsExpiringSoon(now: Date, until: Date, limit: number): Promise<ExpiringSecret[]>;
  /** Marks the secret's developers told, with the mail that tells them, once. */
  saveExpiryNotice(secretId: string, mail: NewOutboxMessage[], now: Date): Promise<boolean>;
}

export const prismaPartnerStore = (db: Db): PartnerStore =>
  bindDb(db, {
    saveInitialAccessToken: storeInitialAccessToken,
    findInitialAccessTokenCompany,
    revokeInitialAccessToken,
    savePartnerAllowance: storePartnerAllowance,
    savePartnerSandbox: storePartnerSandbox,
    findPartner,
    insertPending: insertPendingClient,
    findByRegistrationToken: findClientByRegistrationToken,
    find: findApplication,
    list: listPartnerClients,
    saveChange: storePartnerChange,
    saveReview: storeReview,
    findReviewStates: findClientReviewStates,
    findVendorDevelopers,
    findSecretsExpiringSoon,
    saveExpiryNotice: storeExpiryNotice,
  });
