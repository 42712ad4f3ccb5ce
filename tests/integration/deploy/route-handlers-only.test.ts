/**
 * Where only Next.js serves (Vercel): `npm run migrate` prepares the database completely, and the route handlers rely
 * on nothing else the start script does; a process that must sign on a database without keys creates them, and two
 * doing so at once leave one active key per algorithm.
 */
import { afterEach, describe, expect, it } from "vitest";
import { prismaStores } from "@/lib/store/stores";
import type { Db } from "@/lib/db/prisma";
import { loadDemoData } from "@/lib/setup/load-demo-data";
import { forgetClient } from "@/lib/store/client-store";
import { forgetKeySet } from "@/lib/store/signing-key-store";
import { ensureSigningKeys } from "@/lib/oauth/keys/signing-keys";
import { syncScopes } from "@/lib/setup/sync-scopes";
import { basic, formRequest, ISSUER } from "../../helpers/oauth-service";
import { runScript } from "../../helpers/run-script";
import {
  createTestDatabase,
  testProvider,
  useDatabaseForService,
  type TestDatabase,
} from "../../helpers/test-database";
import { demoClients } from "@/prisma/demo-data";

const SECRET_KEY = "route-handlers-only-secret-key-0123456789";
let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

/** One active key per algorithm, whichever process made it. */
const activeKeyAlgorithms = async (db: Db) =>
  (await db.signingKey.findMany({ where: { supersededAt: null } })).map((key) => key.algorithm).sort();

describe(`route handlers without the start script on ${testProvider()}`, () => {
  it("npm run migrate applies migrations, writes scopes, creates keys and loads the demo data", async () => {
    database = await createTestDatabase({ migrate: false });
    const result = await runScript("scripts/migrate.ts", [], {
      DATABASE_URL: database.target.url,
      SECRET_KEY,
      DEMO_DATA: "1",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Applied: 0001_identity, .*\nCreated signing keys: .+\nLoaded demo data: /);
    const { db } = database;
    expect(await db.user.count({ where: { email: "optician@demo.test" } })).toBe(1);
    expect(await db.scope.count()).toBeGreaterThan(5);
    expect(await activeKeyAlgorithms(db)).toEqual(["ES256", "PS256", "RS256"]);
    expect(
      (
        await runScript("scripts/migrate.ts", [], { DATABASE_URL: database.target.url, SECRET_KEY, DEMO_DATA: "1" })
      ).stdout.trim(),
    ).toBe("Database is up to date.");
  });

  it("prepares one fresh database from several processes at once, demo data included, without a conflict", async () => {
    database = await createTestDatabase({ migrate: false });
    const env = { DATABASE_URL: database.target.url, SECRET_KEY, DEMO_DATA: "1" };
    const results = await Promise.all([0, 1, 2].map(() => runScript("scripts/migrate.ts", [], env)));
    expect(results.map((result) => [result.code, result.stderr])).toEqual(results.map(() => [0, ""]));
    expect(await database.db.client.count({ where: { id: { startsWith: "demo-" } } })).toBe(
      demoClients("platform").length,
    );
    expect(await activeKeyAlgorithms(database.db)).toEqual(["ES256", "PS256", "RS256"]);
  });

  it("signs the first token on a database without keys, and publishes the key it made", async () => {
    database = await createTestDatabase();
    await syncScopes(prismaStores(database.db), "platform");
    await loadDemoData(prismaStores(database.db), {
      apiScopePrefix: "platform",
      publicUrl: ISSUER,
      secretKey: SECRET_KEY,
    });
    useDatabaseForService(database.target);
    process.env.SECRET_KEY = SECRET_KEY;
    process.env.PUBLIC_URL = ISSUER;
    forgetKeySet();
    forgetClient();
    const { ROUTES } = await import("@/lib/server/routes");
    const token = await ROUTES["/connect/token"].POST(
      formRequest(
        "/connect/token",
        { grant_type: "client_credentials" },
        { authorization: basic("demo-backend", "demo-backend-secret") },
      ),
    );
    expect(token.status).toBe(200);
    const jwks = await (
      await ROUTES["/.well-known/openid-configuration/jwks"].GET(
        new Request(`${ISSUER}/.well-known/openid-configuration/jwks`),
      )
    ).json();
    expect(jwks.keys).toHaveLength(1);
  });

  it("leaves one active key per algorithm when processes create them at once; the others stay published until they retire", async () => {
    database = await createTestDatabase();
    const now = new Date();
    await Promise.all(
      [0, 1, 2].map(() =>
        ensureSigningKeys(prismaStores(database!.db).signingKeys, ["RS256", "ES256"], SECRET_KEY, now),
      ),
    );
    for (const algorithm of ["RS256", "ES256"]) {
      const keys = await database.db.signingKey.findMany({ where: { algorithm } });
      expect(
        keys.filter((key) => key.supersededAt === null),
        algorithm,
      ).toHaveLength(1);
      for (const retired of keys.filter((key) => key.supersededAt !== null))
        expect(retired.retiredAt!.getTime()).toBeGreaterThan(now.getTime() + 3600_000);
    }
  });
});
