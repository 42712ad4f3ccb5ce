/** The database stores keep the store contract, on SQLite or, under `npm run test:postgres`, PostgreSQL. */
import { beforeAll, describe } from "vitest";
import { insertClient } from "@/lib/store/client-registry-store";
import { prismaStores } from "@/lib/store/stores";
import { storeContract } from "../../store-contract/store-contract";
import { SECRET_KEY, useOAuthService } from "../../helpers/oauth-service";

const service = useOAuthService();

describe("database stores", () => {
  let userId: string;
  beforeAll(async () => {
    const db = service().database.db;
    userId = (await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } })).id;
  });
  storeContract({
    stores: () => prismaStores(service().database.db),
    secretKey: SECRET_KEY,
    subjects: () => ({
      clientId: "demo-web",
      otherClientId: "demo-native",
      userId,
      companyId: "demo-company-optician",
    }),
    async addClient(id, registration, secret) {
      const steps = { checkCompany: async () => {}, firstSecret: secret ? () => ({ value: secret }) : undefined };
      await insertClient(service().database.db, id, registration, steps);
    },
  });
});
