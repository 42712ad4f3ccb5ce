/** The in-memory stores keep the store contract. */
import { describe } from "vitest";
import { memoryStores } from "@/lib/store/memory/memory-stores";
import { storeContract } from "../../store-contract/store-contract";

describe("memory stores", () => {
  const stores = memoryStores();
  storeContract({
    stores: () => stores,
    subjects: () => ({ clientId: "client-a", otherClientId: "client-b", userId: "user-1" }),
  });
});
