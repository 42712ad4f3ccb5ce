/**
 * Consents (which scopes a user granted a client, as a JSON list) and the scope definitions they are shown with.
 * Storing a decision and taking a consent back are each one transaction with their audit event; taking it back also
 * revokes the client's refresh tokens for that user and deletes its unused authorization codes, so the client's next
 * refresh is invalid_grant and its next sign-in asks for consent again.
 */
import type { Db } from "@/lib/db/prisma";
import type { LocalizedText } from "@/lib/i18n/localized-text";
import { recordAuditEvent } from "@/lib/store/audit-store";
import { deleteUnusedAuthorizationCodes } from "@/lib/store/authorization-code-store";
import { revokeRefreshTokens } from "@/lib/store/refresh-token-store";
import type { AuditDetails } from "@/lib/store/models/audit-details";

/** A scope definition as stored; display names and descriptions are JSON maps of language tag to text. */
export interface ScopeRow {
  name: string;
  kind: string;
  displayNames: string;
  descriptions: string;
}

const userClient = (userId: string, clientId: string) => ({ userId_clientId: { userId, clientId } });

/** A scope as the consent page and the portal name it, in every language. */
export interface ScopeDefinition {
  name: string;
  kind: string;
  displayNames: LocalizedText;
  descriptions: LocalizedText;
}

/** A consent the user gives now, with the names of its client. */
interface CurrentConsent {
  clientId: string;
  scopes: string[];
  grantedAt: Date;
  lastUsedAt: Date | null;
  client: { names: LocalizedText; descriptions: LocalizedText };
}

export interface ConsentStore {
  /** The scopes the user currently grants the client, or null when there is no consent or it was revoked. */
  findGrantedScopes(userId: string, clientId: string): Promise<string[] | null>;
  /** The id of the user's consent for the client (current or revoked), to link what is issued under it. */
  findId(userId: string, clientId: string): Promise<string | undefined>;
  /** Notes that the client used the consent (a sign-in), for the portal's "last used". */
  markUsed(consent: { id: string } | { userId: string; clientId: string }, now: Date): Promise<void>;
  /**
   * Stores the user's decision for the client: its scopes become `decide` of those currently granted (none when
   * there is no consent or it was revoked), in one commit with the audit event that carries `details`.
   */
  /**
   * Takes back the user's consent for the client with the refresh tokens and unused codes issued under it, in one
   * commit with the audit event; false when there was no current consent.
   */
  revoke(userId: string, clientId: string, now?: Date): Promise<boolean>;
  /** The user's current consents with their clients, the latest granted first. */
  listCurrent(userId: string): Promise<CurrentConsent[]>;
  /** Every scope definition, or those of the given names. */
  listScopes(names?: string[]): Promise<ScopeDefinition[]>;
  save(
    userId: string,
    clientId: string,
    decide: (current: string[]) => string[],
    details: AuditDetails,
    now: Date,
  ): Promise<void>;
}

export function prismaConsentStore(db: Db): ConsentStore {
  return {
    async findGrantedScopes(userId, clientId) {
      const consent = await db.consent.findUnique({ where: userClient(userId, clientId) });
      return consent && !consent.revokedAt ? (JSON.parse(consent.scopes) as string[]) : null;
    },
    async findId(userId, clientId) {
      const consent = await db.consent.findUnique({ where: userClient(userId, clientId), select: { id: true } });
      return consent?.id;
    },
    async markUsed(consent, now) {
      await db.consent.updateMany({ where: consent, data: { lastUsedAt: now } });
    },
    revoke: (userId, clientId, now) => revokeConsentAndItsGrants(db, userId, clientId, now),
    listCurrent: (userId) => listCurrentConsents(db, userId),
    listScopes: (names) => listScopeDefinitions(db, names),
    save: (userId, clientId, decide, details, now) => storeConsent(db, userId, clientId, decide, details, now),
  };
}

async function storeConsent(
  db: Db,
  userId: string,
  clientId: string,
  decide: (current: string[]) => string[],
  details: AuditDetails,
  now: Date,
): Promise<void> {
  await db.$transaction(async (tx) => {
    const existing = await tx.consent.findUnique({ where: userClient(userId, clientId) });
    const current = existing && !existing.revokedAt ? (JSON.parse(existing.scopes) as string[]) : [];
    const scopes = JSON.stringify(decide(current));
    await tx.consent.upsert({
      where: userClient(userId, clientId),
      create: { userId, clientId, scopes, grantedAt: now },
      update: { scopes, grantedAt: now, revokedAt: null },
    });
    await recordAuditEvent(tx, { type: "consent.granted", userId, clientId, details });
  });
}

/** Takes back the user's consent for the client with everything that lives on it; false when there was none. */
function revokeConsentAndItsGrants(db: Db, userId: string, clientId: string, now = new Date()): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const revoked = await tx.consent.updateMany({
      where: { userId, clientId, revokedAt: null },
      data: { revokedAt: now },
    });
    if (revoked.count === 0) return false;
    const tokens = await revokeRefreshTokens(tx, { userId, clientId }, now);
    const codes = await deleteUnusedAuthorizationCodes(tx, userId, clientId);
    // A device the person allowed that has not fetched its tokens yet gets none now: its poll hears access_denied.
    const devices = await tx.deviceAuthorization.updateMany({
      where: { userId, clientId, status: "approved", redeemedAt: null },
      data: { status: "denied" },
    });
    await recordAuditEvent(tx, {
      type: "consent.revoked",
      userId,
      clientId,
      details: { refreshTokens: tokens, codes, devices: devices.count },
    });
    return true;
  });
}

/** The user's current consents with their clients, the latest granted first. */
async function listCurrentConsents(db: Db, userId: string): Promise<CurrentConsent[]> {
  const rows = await db.consent.findMany({
    where: { userId, revokedAt: null },
    include: { client: { select: { names: true, descriptions: true } } },
    orderBy: { grantedAt: "desc" },
  });
  return rows.map((row) => ({
    clientId: row.clientId,
    scopes: JSON.parse(row.scopes) as string[],
    grantedAt: row.grantedAt,
    lastUsedAt: row.lastUsedAt,
    client: {
      names: JSON.parse(row.client.names) as LocalizedText,
      descriptions: JSON.parse(row.client.descriptions) as LocalizedText,
    },
  }));
}

async function listScopeDefinitions(db: Db, names?: string[]): Promise<ScopeDefinition[]> {
  return (await listScopes(db, names)).map((row) => ({
    name: row.name,
    kind: row.kind,
    displayNames: JSON.parse(row.displayNames) as LocalizedText,
    descriptions: JSON.parse(row.descriptions) as LocalizedText,
  }));
}

/** Every scope definition, or those of the given names. */
function listScopes(db: Db, names?: string[]): Promise<ScopeRow[]> {
  return db.scope.findMany(names ? { where: { name: { in: names } } } : undefined);
}

/** Writes the scope definitions; only rows that are missing or differ are touched. */
export async function storeScopes(db: Db, scopes: ScopeRow[]): Promise<void> {
  const existing = new Map((await listScopes(db)).map((row) => [row.name, row]));
  for (const { name, ...data } of scopes) {
    const row = existing.get(name);
    if (!row) {
      await db.scope.create({ data: { name, ...data } });
    } else if (
      row.kind !== data.kind ||
      row.displayNames !== data.displayNames ||
      row.descriptions !== data.descriptions
    ) {
      await db.scope.update({ where: { name }, data });
    }
  }
}
