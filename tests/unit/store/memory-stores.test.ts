/** The in-memory stores keep the store contract. */
import { describe } from "vitest";
import { hashToken } from "@/lib/crypto/tokens";
import { addMemoryClient } from "@/lib/store/memory/memory-clients";
import { MemoryTables } from "@/lib/store/memory/memory-tables";
import { memoryStores } from "@/lib/store/memory/memory-stores";
import { storeContract } from "../../store-contract/store-contract";

describe("memory stores", () => {
  const tables = new MemoryTables();
  const stores = memoryStores(tables);
  storeContract({
    stores: () => stores,
    subjects: () => ({ clientId: "client-a", otherClientId: "client-b", userId: "user-1" }),
    async addClient(id, registration, secret) {
      const secrets = secret ? [{ hash: hashToken(secret), expiresAt: null }] : [];
      addMemoryClient(tables, { ...registration, id, createdAt: new Date(), updatedAt: new Date(), secrets });
    },
  });
});
