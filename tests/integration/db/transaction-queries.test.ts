/**
 * A PostgreSQL transaction runs on one pg client, which takes one query at a time: pg 8 queues a query sent while
 * another runs and warns that pg@9 will refuse it. Prisma's query plans read an include's relations at once, so a
 * transaction must hand them to its client one after another (lib/db/prisma.ts).
 */
import { prismaStores } from "@/lib/store/stores";
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { driverOf } from "@/lib/db/prisma";
import { changeRegistration } from "@/lib/catalog/registrations/registrations";
import { useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();

/** The most queries any client of the pool has had under way at once, from now on. */
function watchQueriesPerClient(pool: pg.Pool): { most: number } {
  const watched = new WeakSet<pg.PoolClient>();
  const seen = { most: 0 };
  pool.on("acquire", (client) => {
    if (watched.has(client)) return;
    watched.add(client);
    let running = 0;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const done = () => void running--;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      seen.most = Math.max(seen.most, ++running);
      const callback = args.at(-1);
      if (typeof callback !== "function") return (query(...args) as Promise<unknown>).finally(done);
      return query(...args.slice(0, -1), (...results: unknown[]) => (done(), callback(...results)));
    };
  });
  return seen;
}

describe.skipIf(testProvider() !== "postgresql")(
  "queries of a transaction on postgresql (skipped on SQLite: needs TEST_DATABASE_URL)",
  () => {
    it("reach the transaction's pg client one at a time, also the relations of an include read at once", async () => {
      const db = service().database.db;
      const driver = driverOf(db);
      if (driver.provider !== "postgresql") throw new Error("runs on PostgreSQL only");
      const seen = watchQueriesPerClient(driver.pool);
      const optician = await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
      const registration = await db.supplierRegistration.findFirstOrThrow({
        where: { opticianCompanyId: optician.companyId, status: "active" },
      });

      // One transaction that reads the registration with its optician, supplier and subscriptions, twice.
      const changed = await changeRegistration(
        prismaStores(db),
        { company: { id: optician.companyId, kind: "eye_care_professional" }, userId: optician.id },
        registration.id,
        registration.version,
        {
          subscriptions: [{ catalogId: "catalog.xml", status: "Subscribed" }],
        },
      );
      expect(changed.subscriptions).toContainEqual({ catalogId: "catalog.xml", status: "Subscribed" });
      expect(seen.most).toBe(1);
    });
  },
);

describe(`a write outside a transaction on ${testProvider()}`, () => {
  it("is not rolled back with another request's transaction that fails meanwhile", async () => {
    const db = service().database.db;
    await db.company.create({ data: { id: "tx-c1", name: "one", kind: "supplier" } });
    await db.company.create({ data: { id: "tx-c2", name: "two", kind: "supplier" } });
    const failing = db
      .$transaction(async (tx) => {
        await tx.company.update({ where: { id: "tx-c1" }, data: { name: "one in the transaction" } });
        await new Promise((resolve) => setTimeout(resolve, 300));
        throw new Error("rolled back");
      })
      .catch((error: Error) => error.message);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await db.company.update({ where: { id: "tx-c2" }, data: { name: "two, written alone" } });
    expect(await failing).toBe("rolled back");
    const names = await db.company.findMany({ where: { id: { in: ["tx-c1", "tx-c2"] } }, orderBy: { id: "asc" } });
    expect(names.map((company) => company.name)).toEqual(["one", "two, written alone"]);
  });
});
