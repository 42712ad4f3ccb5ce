/**
 * The housekeeping of the memory stores (maintenance-store.ts): always reachable, with no schema to migrate and no
 * pool; scopes stored as the consent page reads them; what expired purged by the database's rules and in its rounds;
 * sealed secrets sealed anew under the newest key.
 */
import type { LocalizedText } from "@/lib/i18n/localized-text";
import type { PurgeCounts } from "@/lib/store/expired-rows-store";
import { auditCutoff, drainExpired, purgeCutoffs } from "@/lib/store/expired-rows-store";
import { memoryAuditStore } from "@/lib/store/memory/memory-audit";
import type { MaintenanceStore } from "@/lib/store/maintenance-store";
import { resealRows } from "@/lib/store/sealed-secret-store";
import type { MemoryTables } from "@/lib/store/memory/memory-tables";

/** Deletes up to `limit` of the entries `expired` picks from a map; how many. */
function deleteWhere<K, V>(rows: Map<K, V>, limit: number, expired: (row: V, key: K) => boolean): number {
  let deleted = 0;
  for (const [key, row] of rows) {
    if (deleted >= limit) break;
    if (expired(row, key)) {
      rows.delete(key);
      deleted++;
    }
  }
  return deleted;
}

/** One round of the purge: at most `batch` rows of each kind, as the database's round takes. */
async function purgeRound(
  tables: MemoryTables,
  now: Date,
  batch: number,
  auditEventsBefore: Date | undefined,
): Promise<PurgeCounts> {
  const { dayAgo, windowStart, resetRequestsBefore, deviceRequestsBefore } = purgeCutoffs(now);
  const staleResets = (mail: MemoryTables["outbox"][number]) =>
    mail.kind === "password_reset" &&
    mail.status === "queued" &&
    !mail.claimToken &&
    mail.createdAt < resetRequestsBefore;
  const resets = new Set(tables.outbox.filter(staleResets).slice(0, batch));
  tables.outbox = tables.outbox.filter((mail) => !resets.has(mail));
  return {
    refreshTokens: deleteWhere(tables.refreshTokens, batch, (token) => token.expiresAt < dayAgo),
    authorizationCodes: deleteWhere(tables.authorizationCodes, batch, (code) => code.expiresAt < dayAgo),
    tickets: deleteWhere(tables.tickets, batch, (ticket) => ticket.expiresAt < now),
    interactions: deleteWhere(tables.interactions, batch, (prompt) => prompt.expiresAt < now),
    loginSessions: deleteWhere(
      tables.loginSessions,
      batch,
      (session) => session.expiresAt < dayAgo || (session.endedAt !== null && session.endedAt < dayAgo),
    ),
    throttles: deleteWhere(
      tables.throttles,
      batch,
      (row) => row.windowStartedAt < windowStart && (!row.lockedUntil || row.lockedUntil < now),
    ),
    usedAssertions: deleteWhere(tables.usedAssertions, batch, (expiresAt) => expiresAt < now),
    accountLinks: deleteWhere(tables.accountLinks, batch, (link) => link.expiresAt < dayAgo),
    signInNotices: deleteWhere(tables.signInNotices, batch, (notice) => notice.expiresAt < dayAgo),
    resetRequests: resets.size,
    webauthnChallenges: deleteWhere(tables.usedChallenges, batch, (challenge) => challenge.expiresAt < now),
    pushedRequests: deleteWhere(tables.pushedRequests, batch, (pushed) => pushed.expiresAt < now),
    deviceAuthorizations: deleteWhere(
      tables.deviceAuthorizations,
      batch,
      (request) => request.expiresAt < deviceRequestsBefore,
    ),
    auditEvents: auditEventsBefore ? await memoryAuditStore(tables).purgeBefore(auditEventsBefore, batch) : 0,
  };
}

export function memoryMaintenanceStore(tables: MemoryTables): MaintenanceStore {
  return {
    readHealth: async () => ({ reachable: true, migrations: { applied: [], pending: [] } }),
    poolConnections: () => undefined,
    async saveScopes(scopes) {
      for (const scope of scopes)
        tables.scopes.set(scope.name, {
          name: scope.name,
          kind: scope.kind,
          displayNames: JSON.parse(scope.displayNames) as LocalizedText,
          descriptions: JSON.parse(scope.descriptions) as LocalizedText,
        });
    },
    purgeExpired: (options = {}) =>
      drainExpired(
        (now, batch) => purgeRound(tables, now, batch, auditCutoff(now, options.auditRetentionDays)),
        options,
      ),
    async resealSecrets(secretKey) {
      const queued = tables.outbox.filter((mail) => mail.status !== "sent" && mail.sealedBody !== null);
      const store = <T>(row: T | undefined, apply: (row: T) => void) => {
        if (row) apply(row);
        return Promise.resolve({ count: row ? 1 : 0 });
      };
      return {
        signingKeys: await resealRows(
          tables.signingKeys.map((key) => ({ id: key.id, sealed: key.privateKeyEncrypted })),
          secretKey,
          "signing-key-encryption",
          async (id, was, sealed) =>
            store(
              tables.signingKeys.find((key) => key.id === id && key.privateKeyEncrypted === was),
              (key) => (key.privateKeyEncrypted = sealed),
            ),
        ),
        authenticatorApps: await resealRows(
          [...tables.totp.values()].map((app) => ({ id: app.userId, sealed: app.sealedSecret })),
          secretKey,
          "totp-secret",
          async (userId, was, sealed) =>
            store(
              [tables.totp.get(userId)].find((app) => app?.sealedSecret === was),
              (app) => (app.sealedSecret = sealed),
            ),
        ),
        companySsoSecrets: await resealRows(
          [...tables.companySso.values()].flatMap((sso) =>
            sso.sealedClientSecret === null ? [] : [{ id: sso.companyId, sealed: sso.sealedClientSecret }],
          ),
          secretKey,
          "company-sso-secret",
          async (companyId, was, sealed) =>
            store(
              [tables.companySso.get(companyId)].find((sso) => sso?.sealedClientSecret === was),
              (sso) => (sso.sealedClientSecret = sealed),
            ),
        ),
        webhookSecrets: await resealRows(
          [...tables.webhookEndpoints.values()].map((endpoint) => ({ id: endpoint.id, sealed: endpoint.secretSealed })),
          secretKey,
          "webhook-secret",
          async (id, was, sealed) =>
            store(
              [tables.webhookEndpoints.get(id)].find((endpoint) => endpoint?.secretSealed === was),
              (endpoint) => (endpoint.secretSealed = sealed),
            ),
        ),
        queuedMail: await resealRows(
          queued.map((mail) => ({ id: mail.id, sealed: mail.sealedBody! })),
          secretKey,
          "outbox",
          async (id, was, sealed) =>
            store(
              tables.outbox.find((mail) => mail.id === id && mail.sealedBody === was),
              (mail) => (mail.sealedBody = sealed),
            ),
        ),
      };
    },
  };
}
