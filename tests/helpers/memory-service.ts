/**
 * A service context on the in-memory stores, for unit tests of grants and rules: one company, one user, and the
 * clients a test registers. Nothing in it reaches a database: every store is the in-memory twin.
 */
import { loadConfig } from "@/lib/config";
import { hashToken } from "@/lib/crypto/tokens";
import type { ServiceContext } from "@/lib/service-context";
import { addMemoryClient } from "@/lib/store/memory/memory-clients";
import { MemoryTables } from "@/lib/store/memory/memory-tables";
import { memoryStores } from "@/lib/store/memory/memory-stores";
import { addMemoryCompany } from "@/lib/store/memory/memory-users";
import type { ClientRegistration } from "@/lib/store/models/client";

export const MEMORY_ISSUER = "https://id.memory.example";

export function memoryService() {
  const tables = new MemoryTables();
  const stores = memoryStores(tables);
  const config = loadConfig({
    NODE_ENV: "test",
    PUBLIC_URL: MEMORY_ISSUER,
    SECRET_KEY: "memory-service-secret-key-0123456789abcdef",
    TOKEN_SIGNING_ALG: "ES256",
  });
  const context: ServiceContext = { config, stores };
  addMemoryCompany(tables, {
    id: "company-1",
    name: "Optik Muster",
    kind: "eye_care_professional",
    country: "DE",
    active: true,
    supplierId: null,
    name1: null,
    name2: null,
    portalUrl: null,
    requireSecondFactor: false,
    secondFactorRuleByOperator: false,
    signInNotices: null,
    createdAt: new Date(),
  });
  return {
    tables,
    context,
    /** Saves an active user of the company; returns their id. */
    async addUser(email: string): Promise<string> {
      const user = { email, givenName: "Ada", familyName: "Muster", companyId: "company-1", role: "user" };
      await stores.users.save({ ...user, emailVerified: true, passwordHash: "unused" });
      return (await stores.users.findIdByEmail(email))!;
    },
    addClient(id: string, registration: ClientRegistration, secret?: string): void {
      const secrets = secret ? [{ hash: hashToken(secret), expiresAt: null }] : [];
      const client = { ...registration, id, createdAt: new Date(), updatedAt: new Date(), ownerCompanyId: null };
      addMemoryClient(tables, { ...client, secrets });
    },
  };
}
