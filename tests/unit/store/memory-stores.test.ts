/** The in-memory stores keep the store contract. */
import { describe } from "vitest";
import { storeContract } from "../../store-contract/store-contract";
import { memoryService } from "../../helpers/memory-service";

describe("memory stores", () => {
  const service = memoryService();
  storeContract({
    stores: () => service.context.stores,
    secretKey: service.context.config.secretKey,
    subjects: () => ({ clientId: "client-a", otherClientId: "client-b", userId: "user-1", companyId: "company-1" }),
    addClient: async (id, registration, secret) => service.addClient(id, registration, secret),
  });
});
