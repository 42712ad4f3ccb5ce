/** What software vendors register themselves, in memory (partner-store.ts, vendor-notice-store.ts). */
import { randomUUID } from "node:crypto";
import type { AuditStore } from "@/lib/store/audit-store";
import type { ClientReviewState, PartnerStore } from "@/lib/store/partner-store";
import { addMemorySecret, newMemoryClient } from "@/lib/store/memory/memory-client-registry";
import { applicationOf, touch } from "@/lib/store/memory/memory-clients";
import { queueInMemory } from "@/lib/store/memory/memory-outbox";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

export interface StoredAccessToken {
  companyId: string;
  tokenHash: string;
  expiresAt: Date;
  revokedAt: Date | null;
}

type VendorAccess = Pick<
  PartnerStore,
  | "saveInitialAccessToken"
  | "findInitialAccessTokenCompany"
  | "revokeInitialAccessToken"
  | "savePartnerAllowance"
  | "findPartner"
  | "savePartnerSandbox"
>;

/** Initial access tokens and what a vendor's applications may ask for. */
function vendorAccess(tables: MemoryTables): VendorAccess {
  const vendor = (companyId: string) => {
    const company = tables.companies.get(companyId);
    return company?.kind === "software_vendor" ? company : undefined;
  };
  const allowanceOf = (companyId: string) => ({
    id: companyId,
    partnerScopes: [...(tables.partnerScopes.get(companyId) ?? [])],
    partnerResources: [...(tables.partnerResources.get(companyId) ?? [])],
    sandbox: !tables.partnerSandboxOff.has(companyId),
  });
  return {
    async saveInitialAccessToken(token) {
      const id = randomUUID();
      tables.initialAccessTokens.set(id, { ...copy(token), revokedAt: null });
      return id;
    },
    async findInitialAccessTokenCompany(tokenHash, now = new Date()) {
      const token = [...tables.initialAccessTokens.values()].find((candidate) => candidate.tokenHash === tokenHash);
      if (!token || token.revokedAt || token.expiresAt <= now) return null;
      const company = vendor(token.companyId);
      return company?.active ? allowanceOf(company.id) : null;
    },
    async revokeInitialAccessToken(id, now = new Date()) {
      const token = tables.initialAccessTokens.get(id);
      if (!token || token.revokedAt) return false;
      token.revokedAt = now;
      return true;
    },
    async savePartnerAllowance(companyId, field, values) {
      if (!vendor(companyId)) return false;
      tables[field].set(companyId, [...values]);
      return true;
    },
    async savePartnerSandbox(companyId, allowed) {
      if (!vendor(companyId)) return false;
      if (allowed) tables.partnerSandboxOff.delete(companyId);
      else tables.partnerSandboxOff.add(companyId);
      return true;
    },
    async findPartner(companyId) {
      const company = vendor(companyId);
      return company ? { ...allowanceOf(company.id), active: company.active } : null;
    },
  };
}

/** Who hears about a vendor's applications, and the notices of secrets about to expire. */
function vendorNotices(
  tables: MemoryTables,
): Pick<PartnerStore, "findVendorDevelopers" | "findSecretsExpiringSoon" | "saveExpiryNotice"> {
  return {
    findVendorDevelopers: async (companyId) =>
      [...tables.users.values()]
        .filter((user) => user.companyId === companyId && user.active && ["admin", "developer"].includes(user.role))
        .map(({ email, preferredLanguage }) => ({ email, preferredLanguage })),
    async findSecretsExpiringSoon(now, until, limit) {
      return [...tables.clients.values()]
        .filter((entry) => entry.ownerCompanyId !== null && entry.status === "approved")
        .flatMap((entry) =>
          entry.secrets
            .filter(
              (s) => !s.disabledAt && !s.expiryNoticeSentAt && s.expiresAt && s.expiresAt > now && s.expiresAt <= until,
            )
            .map((secret) => ({
              id: secret.id,
              description: secret.description,
              expiresAt: secret.expiresAt,
              client: { id: entry.client.id, names: copy(entry.client.names), ownerCompanyId: entry.ownerCompanyId },
            })),
        )
        .slice(0, limit);
    },
    async saveExpiryNotice(secretId, mail, now) {
      const secret = [...tables.clients.values()].flatMap((entry) => entry.secrets).find((s) => s.id === secretId);
      if (!secret || secret.expiryNoticeSentAt) return false;
      secret.expiryNoticeSentAt = now;
      for (const message of mail) queueInMemory(tables, message, now);
      return true;
    },
  };
}

/** Where the given clients (or all) stand with the operator, by client id. */
function reviewStates(tables: MemoryTables, clientIds?: string[]): Map<string, ClientReviewState> {
  const entries = [...tables.clients.values()].filter((entry) => !clientIds || clientIds.includes(entry.client.id));
  return new Map(
    entries.map((entry) => {
      const owner = entry.ownerCompanyId ? tables.companies.get(entry.ownerCompanyId) : undefined;
      return [
        entry.client.id,
        {
          status: entry.status,
          owner: owner ? { id: owner.id, name: owner.name } : null,
          pendingMetadata: copy(entry.pendingMetadata),
          reviewNote: entry.reviewNote,
          version: entry.client.updatedAt.toISOString(),
        },
      ];
    }),
  );
}

export function memoryPartnerStore(tables: MemoryTables, audit: AuditStore): PartnerStore {
  return {
    ...vendorAccess(tables),
    ...vendorNotices(tables),
    async insertPending(registration, owner, by, firstSecret) {
      if (tables.clients.has(registration.id) || tables.users.has(registration.id)) return "taken";
      const owned = [...tables.clients.values()].filter((entry) => entry.ownerCompanyId === owner.companyId);
      if (owned.length >= owner.limit) return "too_many";
      const entry = newMemoryClient(registration.id, registration);
      Object.assign(entry, {
        status: "pending",
        ownerCompanyId: owner.companyId,
        registrationTokenHash: owner.registrationTokenHash,
      });
      tables.clients.set(registration.id, entry);
      await audit.record({
        type: "client.registered",
        userId: by,
        clientId: registration.id,
        companyId: owner.companyId,
        details: { kind: registration.kind, owner: owner.companyId, status: "pending" },
      });
      const secret = firstSecret ? await addMemorySecret(audit, entry, firstSecret, by) : undefined;
      return { application: applicationOf(entry), secret };
    },
    async findByRegistrationToken(tokenHash) {
      const entry = [...tables.clients.values()].find((candidate) => candidate.registrationTokenHash === tokenHash);
      return entry ? applicationOf(entry) : null;
    },
    async find(clientId) {
      const entry = tables.clients.get(clientId);
      return entry ? applicationOf(entry) : null;
    },
    list: async (companyId) =>
      [...tables.clients.values()]
        .filter((entry) => entry.ownerCompanyId === companyId)
        .sort((a, b) => (a.client.id < b.client.id ? -1 : 1))
        .map(applicationOf),
    async saveChange(client, change, by) {
      const entry = tables.clients.get(client.id);
      if (!entry) throw new Error(`no client ${client.id}`);
      if (entry.status === "approved") entry.pendingMetadata = copy(change.metadata);
      else
        Object.assign(entry, {
          client: {
            ...copy(change.registration),
            id: client.id,
            createdAt: entry.client.createdAt,
            updatedAt: entry.client.updatedAt,
          },
          status: "pending",
          pendingMetadata: null,
          reviewNote: null,
        });
      touch(entry);
      await audit.record({
        type: "client.updated",
        userId: by,
        clientId: client.id,
        companyId: client.ownerCompanyId ?? undefined,
        details: { pending: true },
      });
      return applicationOf(entry);
    },
    async saveReview({ clientId, version }, decision, mail, by) {
      const entry = tables.clients.get(clientId);
      if (!entry || (entry.status !== "pending" && entry.pendingMetadata === null)) return null;
      if (entry.client.updatedAt.getTime() !== version.getTime()) return "changed";
      if (decision.approved) {
        if (decision.registration)
          entry.client = {
            ...copy(decision.registration),
            id: clientId,
            createdAt: entry.client.createdAt,
            updatedAt: entry.client.updatedAt,
          };
        Object.assign(entry, { status: "approved", pendingMetadata: null, reviewNote: null });
      } else if (entry.status === "approved")
        Object.assign(entry, { pendingMetadata: null, reviewNote: decision.note });
      else Object.assign(entry, { status: "rejected", reviewNote: decision.note });
      touch(entry);
      const now = new Date();
      for (const message of mail) queueInMemory(tables, message, now);
      await audit.record({
        type: decision.approved ? "client.approved" : "client.rejected",
        userId: by,
        clientId,
        companyId: entry.ownerCompanyId ?? undefined,
        details: decision.approved ? {} : { note: decision.note },
      });
      return applicationOf(entry);
    },
    findReviewStates: async (clientIds) => reviewStates(tables, clientIds),
  };
}
