/** The in-memory stores keep the store contract. */
import { describe } from "vitest";
import { hashToken } from "@/lib/crypto/tokens";
import { addMemoryClient } from "@/lib/store/memory/memory-clients";
import { MemoryTables } from "@/lib/store/memory/memory-tables";
import { addMemoryCompany } from "@/lib/store/memory/memory-users";
import { memoryStores } from "@/lib/store/memory/memory-stores";
import { storeContract } from "../../store-contract/store-contract";

describe("memory stores", () => {
  const tables = new MemoryTables();
  const stores = memoryStores(tables);
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
    createdAt: new Date(),
  });
  storeContract({
    stores: () => stores,
    secretKey: "memory-contract-secret-key-0123456789",
    subjects: () => ({ clientId: "client-a", otherClientId: "client-b", userId: "user-1", companyId: "company-1" }),
    async addClient(id, registration, secret) {
      const secrets = secret ? [{ hash: hashToken(secret), expiresAt: null }] : [];
      addMemoryClient(tables, { ...registration, id, createdAt: new Date(), updatedAt: new Date(), secrets });
    },
  });
});
