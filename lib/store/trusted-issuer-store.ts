/**
 * The partners' authorization servers the operator trusts (`trusted_issuers`), the clients allowed to use their
 * tokens (`trusted_issuer_clients`) and the subjects the operator linked to local users (`federated_subjects`).
 *
 * As the token endpoint needs them, issuers are cached per process for a few seconds like clients, and so is which
 * user id a federated name (a verified email, or a linked subject) maps to, like users themselves
 * (lib/store/user-store.ts). Changes made in this process are seen at once through forgetTrustedIssuers() and
 * forgetFederatedUsers(). The operator's changes are each one transaction with their audit event.
 */
import { ISSUER_CACHE_SECONDS, MAX_CACHED_FEDERATED_USERS, USER_CACHE_SECONDS } from "@/lib/config/policy";
import type { JSONWebKeySet } from "jose";
import { processCache } from "@/lib/observability/process-cache";
import type { Db } from "@/lib/db/prisma";
import type {
  IssuerReach,
  KeySource,
  SubjectMapping,
  TrustedIssuer,
  TrustedIssuerRegistration,
  TrustedIssuerSummary,
} from "@/lib/store/models/trusted-issuer";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import { bindDb } from "@/lib/store/bind-db";
import { findClientGrantTypes } from "@/lib/store/client-registry-store";
import { findCompanyKinds } from "@/lib/store/company-store";
import { findUserIdByEmail, findUserWithCompanyKind, type UserWithCompanyKind } from "@/lib/store/user-store";

const cache = processCache(
  "trustedIssuers",
  () => new Map<string, { loadedAt: number; issuer: Promise<TrustedIssuer | null> }>(),
);

const userIds = processCache(
  "federatedUserIds",
  () => new Map<string, { loadedAt: number; userId: Promise<string | null> }>(),
);

function keySourceOf(row: { jwks: string | null; jwksUri: string | null }): KeySource {
  return row.jwks ? { jwks: JSON.parse(row.jwks) as JSONWebKeySet } : { jwksUri: row.jwksUri! };
}

function reachOf(row: { companies: string | null; emailDomains: string | null }): IssuerReach | null {
  if (row.companies === null && row.emailDomains === null) return null;
  return {
    companies: JSON.parse(row.companies ?? "[]") as string[],
    emailDomains: JSON.parse(row.emailDomains ?? "[]") as string[],
  };
}

async function loadIssuer(db: Db, issuer: string): Promise<TrustedIssuer | null> {
  const row = await db.trustedIssuer.findUnique({
    where: { issuer },
    include: { clients: { select: { clientId: true } } },
  });
  if (!row) return null;
  return {
    issuer: row.issuer,
    keys: keySourceOf(row),
    clientIds: new Set(row.clients.map((client) => client.clientId)),
    subjectMapping: row.subjectMapping as SubjectMapping,
    reach: reachOf(row),
  };
}

function findTrustedIssuer(db: Db, issuer: string, now = Date.now()): Promise<TrustedIssuer | null> {
  const entry = cache.get(issuer);
  if (entry && now - entry.loadedAt < ISSUER_CACHE_SECONDS * 1000) return entry.issuer;
  // Unknown issuers are not cached: the map holds only what the operator registered, whatever callers send.
  const loaded = loadIssuer(db, issuer).then((found) => {
    if (!found) cache.delete(issuer);
    return found;
  });
  cache.set(issuer, { loadedAt: now, issuer: loaded });
  loaded.catch(() => cache.delete(issuer));
  return loaded;
}

export function forgetTrustedIssuers(): void {
  cache.clear();
}

function cachedUserId(key: string, load: () => Promise<string | null>, now: number): Promise<string | null> {
  const entry = userIds.get(key);
  if (entry && now - entry.loadedAt < USER_CACHE_SECONDS * 1000) return entry.userId;
  if (userIds.size >= MAX_CACHED_FEDERATED_USERS) userIds.clear();
  const userId = load();
  userIds.set(key, { loadedAt: now, userId });
  userId.catch(() => userIds.delete(key));
  return userId;
}

/** The id of the user with this (lower-case) email, for issuers that map subjects by email. */
function findFederatedUserIdByEmail(db: Db, email: string, now = Date.now()): Promise<string | null> {
  return cachedUserId(`email\n${email}`, () => findUserIdByEmail(db, email), now);
}

/** The id of the user the operator linked the issuer's subject to. */
function findLinkedUserId(db: Db, issuer: string, subject: string, now = Date.now()): Promise<string | null> {
  const where = { issuer_subject: { issuer, subject } };
  return cachedUserId(
    `link\n${issuer}\n${subject}`,
    async () => (await db.federatedSubject.findUnique({ where, select: { userId: true } }))?.userId ?? null,
    now,
  );
}

/** Forgets the mapped ids (the operator linked a subject in this process). */
export function forgetFederatedUsers(): void {
  userIds.clear();
}

/** What a registration's checks read, inside its transaction. */
export interface IssuerCheckLookups {
  /** Those of these companies that exist, with their kind. */
  companyKinds(companyIds: string[]): Promise<{ id: string; kind: string }[]>;
  /** Those of these clients that exist, with how they authenticate and the grants they may use. */
  clientGrants(clientIds: string[]): Promise<{ id: string; tokenEndpointAuthMethod: string; grantTypes: string[] }[]>;
  /** Whether the issuer is trusted already (the registration then replaces its own). */
  registered: boolean;
}

/**
 * Registers the issuer, or replaces the registration of an issuer already trusted (its links stay), with the event
 * `audit` describes. `check` runs first in the same transaction and refuses the registration by throwing.
 */
async function storeTrustedIssuer(
  db: Db,
  registration: TrustedIssuerRegistration,
  check: (lookups: IssuerCheckLookups) => Promise<void>,
  audit: (outcome: "added" | "updated") => AuditEvent,
): Promise<{ outcome: "added" | "updated"; oldJwksUri?: string | null }> {
  const { issuer, clientIds, subjectMapping, reach } = registration;
  const row = {
    jwks: registration.jwks ? JSON.stringify(registration.jwks) : null,
    jwksUri: registration.jwksUri,
    subjectMapping,
    companies: JSON.stringify(reach.companies),
    emailDomains: JSON.stringify(reach.emailDomains),
  };
  return db.$transaction(async (tx) => {
    const existing = await tx.trustedIssuer.findUnique({ where: { issuer } });
    await check({
      companyKinds: (companyIds) => findCompanyKinds(tx, companyIds),
      clientGrants: async (clientIds) =>
        (await findClientGrantTypes(tx, clientIds)).map((client) => ({
          ...client,
          grantTypes: JSON.parse(client.grantTypes) as string[],
        })),
      registered: existing !== null,
    });
    if (existing) {
      await tx.trustedIssuer.update({ where: { issuer }, data: { ...row, updatedAt: new Date() } });
      await tx.trustedIssuerClient.deleteMany({ where: { issuer } });
    } else {
      await tx.trustedIssuer.create({ data: { issuer, ...row } });
    }
    await tx.trustedIssuerClient.createMany({ data: clientIds.map((clientId) => ({ issuer, clientId })) });
    const outcome = existing ? "updated" : "added";
    await recordAuditEvent(tx, audit(outcome));
    return { outcome, oldJwksUri: existing?.jwksUri } as const;
  });
}

async function listTrustedIssuers(db: Db): Promise<TrustedIssuerSummary[]> {
  const rows = await db.trustedIssuer.findMany({
    orderBy: { issuer: "asc" },
    include: {
      clients: { select: { clientId: true }, orderBy: { clientId: "asc" } },
      _count: { select: { subjects: true } },
    },
  });
  return rows.map((row) => ({
    issuer: row.issuer,
    jwks: row.jwks ? JSON.parse(row.jwks) : null,
    jwksUri: row.jwksUri,
    clientIds: row.clients.map((client) => client.clientId),
    subjectMapping: row.subjectMapping as TrustedIssuerSummary["subjectMapping"],
    reach: reachOf(row),
    linkedSubjects: row._count.subjects,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }));
}

/** Issuers registered before they had to name whom they speak for: their tokens are refused until that is set. */
async function issuersWithoutReach(db: Db): Promise<string[]> {
  const rows = await db.trustedIssuer.findMany({
    where: { companies: null, emailDomains: null },
    select: { issuer: true },
    orderBy: { issuer: "asc" },
  });
  return rows.map((row) => row.issuer);
}

/** Removes the issuer with its links and records `audit`; null (and nothing written) when there is no such issuer. */
function removeTrustedIssuer(db: Db, issuer: string, audit: AuditEvent): Promise<{ jwksUri: string | null } | null> {
  return db.$transaction(async (tx) => {
    const existing = await tx.trustedIssuer.findUnique({ where: { issuer } });
    if (!existing) return null;
    await tx.trustedIssuer.delete({ where: { issuer } });
    await recordAuditEvent(tx, audit);
    return { jwksUri: existing.jwksUri };
  });
}

/** The checks a link must pass, run in its transaction; each refuses by throwing. */
export interface LinkRules {
  /** The issuer as stored (null: not trusted), before the user is read. */
  issuer(found: { subjectMapping: string } | null): asserts found is { subjectMapping: string };
  /** The user the email names (null: none), and whom the issuer speaks for. */
  user(found: UserWithCompanyKind | null, reach: IssuerReach | null): asserts found is UserWithCompanyKind;
}

/**
 * Links the issuer's subject to the user with this (lower-case) email, replacing an earlier link, with the event
 * `audit` describes, once `rules` accepted the issuer and the user.
 */
async function linkFederatedSubject(
  db: Db,
  link: { issuer: string; subject: string; email: string },
  rules: LinkRules,
  audit: (linkedUserId: string) => AuditEvent,
): Promise<void> {
  const { issuer, subject, email } = link;
  await db.$transaction(async (tx) => {
    const trusted = await tx.trustedIssuer.findUnique({ where: { issuer } });
    rules.issuer(trusted);
    const user = await findUserWithCompanyKind(tx, email);
    rules.user(user, reachOf(trusted));
    await tx.federatedSubject.upsert({
      where: { issuer_subject: { issuer, subject } },
      create: { issuer, subject, userId: user.id },
      update: { userId: user.id },
    });
    await recordAuditEvent(tx, audit(user.id));
  });
}

export interface TrustedIssuerStore {
  /** The issuer as registered, or null; cached for ISSUER_CACHE_SECONDS (forgetTrustedIssuers drops them). */
  find(issuer: string, now?: number): Promise<TrustedIssuer | null>;
  /** The id of the user with this (lower-case) email, for issuers that map subjects by email; cached briefly. */
  findUserIdByEmail(email: string, now?: number): Promise<string | null>;
  /** The id of the user the operator linked the issuer's subject to; cached briefly. */
  findLinkedUserId(issuer: string, subject: string, now?: number): Promise<string | null>;
  /** Registers the issuer or replaces its registration (its links stay), once `check` accepted it. */
  save(
    registration: TrustedIssuerRegistration,
    check: (lookups: IssuerCheckLookups) => Promise<void>,
    audit: (outcome: "added" | "updated") => AuditEvent,
  ): Promise<{ outcome: "added" | "updated"; oldJwksUri?: string | null }>;
  list(): Promise<TrustedIssuerSummary[]>;
  /** Issuers registered before they had to name whom they speak for. */
  listWithoutReach(): Promise<string[]>;
  /** Removes the issuer with its links; null (and nothing written) when there is no such issuer. */
  remove(issuer: string, audit: AuditEvent): Promise<{ jwksUri: string | null } | null>;
  /** Links the issuer's subject to the user with this email, once `rules` accepted the issuer and the user. */
  link(
    link: { issuer: string; subject: string; email: string },
    rules: LinkRules,
    audit: (linkedUserId: string) => AuditEvent,
  ): Promise<void>;
}

export const prismaTrustedIssuerStore = (db: Db): TrustedIssuerStore =>
  bindDb(db, {
    find: findTrustedIssuer,
    findUserIdByEmail: findFederatedUserIdByEmail,
    findLinkedUserId,
    save: storeTrustedIssuer,
    list: listTrustedIssuers,
    listWithoutReach: issuersWithoutReach,
    remove: removeTrustedIssuer,
    link: linkFederatedSubject,
  });
