/** Registered clients as the operator changes them, in memory (lib/store/client-registry-store.ts). */
import { hashToken } from "@/lib/crypto/tokens";
import type { AuditStore } from "@/lib/store/audit-store";
import type { ClientRegistryStore, NewClientSecret } from "@/lib/store/client-registry-store";
import type { ClientRegistration } from "@/lib/store/models/client";
import { memorySecret, touch, type MemoryClient } from "@/lib/store/memory/memory-clients";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

/** Everything a client leaves behind goes with it, as the database's foreign keys take it. */
function deleteMemoryClient(tables: MemoryTables, clientId: string): boolean {
  if (!tables.clients.delete(clientId)) return false;
  for (const [key, consent] of tables.consents) if (consent.clientId === clientId) tables.consents.delete(key);
  for (const [key, code] of tables.authorizationCodes)
    if (code.clientId === clientId) tables.authorizationCodes.delete(key);
  for (const [key, token] of tables.refreshTokens) if (token.clientId === clientId) tables.refreshTokens.delete(key);
  for (const [key, prompt] of tables.interactions) if (prompt.clientId === clientId) tables.interactions.delete(key);
  for (const [key, pushed] of tables.pushedRequests)
    if (pushed.clientId === clientId) tables.pushedRequests.delete(key);
  for (const [key, request] of tables.deviceAuthorizations)
    if (request.clientId === clientId) tables.deviceAuthorizations.delete(key);
  for (const key of tables.sessionClients) if (key.endsWith(`\n${clientId}`)) tables.sessionClients.delete(key);
  for (const issuer of tables.trustedIssuers.values())
    issuer.registration.clientIds = issuer.registration.clientIds.filter((id) => id !== clientId);
  return true;
}

/** A new client row: approved unless a vendor's registration says otherwise. */
export function newMemoryClient(id: string, registration: ClientRegistration, now = new Date()): MemoryClient {
  return {
    client: { ...copy(registration), id, createdAt: now, updatedAt: now },
    status: "approved",
    secrets: [],
    ownerCompanyId: null,
    pendingMetadata: null,
    reviewNote: null,
    registrationTokenHash: null,
  };
}

/** Stores a secret's hash in the client's entry with its audit event (client-registry-store.ts, insertSecret). */
export async function addMemorySecret(audit: AuditStore, entry: MemoryClient, secret: NewClientSecret, by?: string) {
  const stored = memorySecret(hashToken(secret.value), secret);
  entry.secrets.push(stored);
  await audit.record({
    type: "client.secret_added",
    userId: by,
    clientId: entry.client.id,
    details: { secretId: stored.id },
  });
  return { secretId: stored.id, value: secret.value };
}

const usableSecrets = (entry: MemoryClient, now = new Date()) =>
  entry.secrets.filter((secret) => !secret.disabledAt && (!secret.expiresAt || secret.expiresAt > now)).length;

export function memoryClientRegistryStore(tables: MemoryTables, audit: AuditStore): ClientRegistryStore {
  const clients = tables.clients;
  const companyExists = async (companyId: string) => tables.companies.has(companyId);
  const addSecret = (entry: MemoryClient, secret: NewClientSecret, by?: string) =>
    addMemorySecret(audit, entry, secret, by);
  return {
    exists: async (clientId) => clients.has(clientId),
    idTaken: async (clientId) => clients.has(clientId) || tables.users.has(clientId),
    async insert(id, registration, steps, by) {
      if (clients.has(id) || tables.users.has(id)) return null;
      await steps.checkCompany(companyExists);
      // Refused by the first secret's check, the registration leaves nothing, as the database's transaction does.
      const firstSecret = steps.firstSecret?.();
      const entry = newMemoryClient(id, registration);
      clients.set(id, entry);
      const company = registration.companyId ? { companyId: registration.companyId } : {};
      await audit.record({
        type: "client.registered",
        userId: by,
        clientId: id,
        details: { kind: registration.kind, ...company },
      });
      const secret = firstSecret ? await addSecret(entry, firstSecret, by) : undefined;
      return { client: copy(entry.client), secret };
    },
    async replaceRegistration(clientId, registration, check, by) {
      const entry = clients.get(clientId);
      if (!entry) return null;
      await check(companyExists, copy(entry.client));
      entry.client = {
        ...copy(registration),
        id: clientId,
        createdAt: entry.client.createdAt,
        updatedAt: entry.client.updatedAt,
      };
      touch(entry);
      await audit.record({
        type: "client.updated",
        userId: by,
        clientId,
        companyId: registration.companyId ?? undefined,
      });
      return copy(entry.client);
    },
    async setSecretExpiry(clientId, secretId, expiresAt, by) {
      const secret = clients.get(clientId)?.secrets.find((candidate) => candidate.id === secretId);
      if (!secret) return false;
      secret.expiresAt = expiresAt;
      await audit.record({ type: "client.secret_expiry_set", userId: by, clientId, details: { secretId, expiresAt } });
      return true;
    },
    list: async () => [...clients.values()].map((entry) => copy(entry.client)).sort((a, b) => (a.id < b.id ? -1 : 1)),
    listOfCompany: async (companyId) =>
      [...clients.values()]
        .filter((entry) => entry.client.companyId === companyId)
        .map((entry) => copy(entry.client))
        .sort((a, b) => (a.id < b.id ? -1 : 1)),
    async findWithSecrets(clientId) {
      const entry = clients.get(clientId);
      if (!entry) return null;
      const secrets = [...entry.secrets]
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map(({ id, description, createdAt, expiresAt, disabledAt, lastUsedAt }) =>
          copy({ id, description, createdAt, expiresAt, disabledAt, lastUsedAt }),
        );
      return { client: copy(entry.client), secrets };
    },
    async insertSecret(clientId, secret, by) {
      const entry = clients.get(clientId);
      return entry ? addSecret(entry, secret(copy(entry.client), usableSecrets(entry)), by) : null;
    },
    async disableSecret(clientId, secretId, by) {
      const entry = clients.get(clientId);
      if (!entry) return "no_client";
      const secret = entry.secrets.find((candidate) => candidate.id === secretId);
      if (!secret) return "no_secret";
      if (secret.disabledAt) return "already_disabled";
      secret.disabledAt = new Date();
      await audit.record({ type: "client.secret_disabled", userId: by, clientId, details: { secretId } });
      return "disabled";
    },
    async remove(clientId, by, details) {
      if (!deleteMemoryClient(tables, clientId)) return false;
      await audit.record({ type: "client.removed", userId: by, clientId, details });
      return true;
    },
  };
}
