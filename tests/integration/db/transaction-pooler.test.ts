/**
 * OptiGate behind a transaction-mode pooler, as serverless platforms reach PostgreSQL: PgBouncer (scripts/pgbouncer.ts)
 * with pool_mode=transaction, two server connections shared by every client, and no prepared statements kept for
 * them. With DATABASE_POOLER=transaction the real route handlers serve the token grants, the catalog services and the
 * health check through it, two instances on one database share its connections, and two migrators still take turns.
 * Without the setting the hot path's named statements fail there: the pooler really breaks what it should.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getConfig } from "@/lib/config";
import type { DatabasePooler, DatabaseTarget } from "@/lib/config/database-url";
import { applyMigrations, migrationsDirectory, readMigrations } from "@/lib/db/migrator";
import { closeDb, createPrismaClient, type Db } from "@/lib/db/prisma";
import { webHandler } from "@/lib/http/protocol-message";
import { logger } from "@/lib/observability/logger";
import { handleTokenRequest } from "@/lib/oauth/token/token-endpoint";
import { guardedProtocolHandler } from "@/lib/server/guarded-handler";
import { serviceContextFor } from "@/lib/service-context";
import { closeStores, prismaStores } from "@/lib/store/stores";
import { pgbouncerBinary, startPgBouncer, type PgBouncer } from "../../../scripts/pgbouncer";
import { freePort } from "../../helpers/browser-run";
import {
  authorizeWithConsent,
  basic,
  call,
  demoWeb,
  formRequest,
  ISSUER,
  pkcePair,
  startOAuthService,
  UserAgent,
} from "../../helpers/oauth-service";
import { routeFetch } from "../../helpers/route-fetch";
import { createTestDatabase, testProvider, type TestDatabase } from "../../helpers/test-database";

type Endpoint = (request: Request) => Promise<Response>;

const OFFLINE_SCOPE = "openid profile platform.catalogs.read offline_access";
const NATIVE_REDIRECT = "http://127.0.0.1:50507/cb";
const asWeb = { Authorization: basic(demoWeb.client_id, demoWeb.secret) };
const tokenRequest = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  formRequest("/connect/token", form, headers);

/** The instance of the route table: this process's configuration and its database client. */
const routeHandlers: Endpoint = (request) => call("token", request);

describe.skipIf(testProvider() !== "postgresql" || !pgbouncerBinary())(
  "behind a transaction-mode pooler (PgBouncer) on postgresql (skipped on SQLite and without pgbouncer)",
  () => {
    let database: TestDatabase;
    let bouncer: PgBouncer;
    /** The test database through the pooler, with DATABASE_POOLER=transaction. */
    let pooled: DatabaseTarget;
    const instanceClients: Db[] = [];

    beforeAll(async () => {
      database = await createTestDatabase();
      bouncer = await startPgBouncer(process.env.TEST_DATABASE_URL!, Number(freePort()));
      pooled = throughPooler(database.target, "transaction");
      await startOAuthService(pooled);
    });

    afterAll(async () => {
      await Promise.all(instanceClients.map(closeDb));
      if (pooled) await closeStores(pooled);
      await bouncer?.stop();
      await database?.drop();
    });

    /** A database of the test server as reached through the pooler, with DATABASE_POOLER=`pooler`. */
    const throughPooler = (target: DatabaseTarget, pooler: DatabasePooler): DatabaseTarget => ({
      provider: "postgresql",
      url: bouncer.through(target.url),
      pooler,
    });

    /**
     * Another instance on the same database: its own Prisma client and pool through the pooler (`pooler` as given),
     * serving the same token endpoint behind the same guard as the route table does.
     */
    function instance(pooler: DatabasePooler): Endpoint {
      const db = createPrismaClient(throughPooler(database.target, pooler));
      instanceClients.push(db);
      const context = serviceContextFor(prismaStores(db), getConfig());
      return webHandler(guardedProtocolHandler((request) => handleTokenRequest(request, context)));
    }

    /** demo-native (public) signs the demo optician in with PKCE through the route handlers: its code request. */
    async function nativeRedemption(): Promise<Request> {
      const { verifier, challenge } = pkcePair();
      const { code } = await authorizeWithConsent(new UserAgent(), {
        client_id: "demo-native",
        redirect_uri: NATIVE_REDIRECT,
        response_type: "code",
        scope: OFFLINE_SCOPE,
        state: "s",
        code_challenge: challenge,
        code_challenge_method: "S256",
      });
      const form = { grant_type: "authorization_code", code, redirect_uri: NATIVE_REDIRECT, code_verifier: verifier };
      return tokenRequest({ ...form, client_id: "demo-native" });
    }

    const nativeRefresh = (refreshToken: string) =>
      tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: "demo-native" });

    /** A refresh token of demo-web (confidential: a refresh slides it, in one grouped statement per turn). */
    async function webRefreshToken(): Promise<string> {
      const { code } = await authorizeWithConsent(new UserAgent(), {
        client_id: demoWeb.client_id,
        redirect_uri: demoWeb.redirect_uri,
        response_type: "code",
        scope: OFFLINE_SCOPE,
        state: "s",
      });
      const form = { grant_type: "authorization_code", code, redirect_uri: demoWeb.redirect_uri };
      const response = await routeHandlers(tokenRequest(form, asWeb));
      expect(response.status).toBe(200);
      return (await response.json()).refresh_token;
    }

    const webRefresh = (refreshToken: string) =>
      tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken }, asWeb);

    /** Presents a public client's refresh token to each endpoint in turn; each must answer with its successor. */
    async function rotateThrough(endpoints: Endpoint[], refreshToken: string): Promise<void> {
      for (const endpoint of endpoints) {
        const response = await endpoint(nativeRefresh(refreshToken));
        expect(response.status).toBe(200);
        const { refresh_token: successor } = await response.json();
        expect(successor).not.toBe(refreshToken);
        refreshToken = successor;
      }
    }

    const statuses = (responses: Response[]) => responses.map((response) => response.status);

    it("serves client_credentials, the code flow with PKCE, refresh and its rotation through the route handlers", async () => {
      expect(getConfig().database).toEqual(pooled);
      const backend = { Authorization: basic("demo-backend", "demo-backend-secret") };
      const credentials = Array.from({ length: 8 }, () =>
        routeHandlers(tokenRequest({ grant_type: "client_credentials" }, backend)),
      );
      expect(statuses(await Promise.all(credentials))).toEqual(Array(8).fill(200));

      const redeemed = await routeHandlers(await nativeRedemption());
      expect(redeemed.status).toBe(200);
      await rotateThrough([routeHandlers, routeHandlers, routeHandlers], (await redeemed.json()).refresh_token);

      const webTokens = [await webRefreshToken(), await webRefreshToken()];
      const slides = webTokens.flatMap((token) => [routeHandlers(webRefresh(token)), routeHandlers(webRefresh(token))]);
      expect(statuses(await Promise.all(slides))).toEqual([200, 200, 200, 200]);
    });

    it("serves the catalog list, a ticket, sub-catalogs and the health check through the route handlers", async () => {
      const catalogs = await routeFetch(`${ISSUER}/getCatalogInfos.ashx`);
      expect(catalogs.status).toBe(200);
      expect(await catalogs.text()).toContain('companyID="demo-company-lens"');

      const login = await routeFetch(`${ISSUER}/services/login/SilentLogin`, {
        method: "POST",
        body: new URLSearchParams({ username: "optician@demo.test", password: "Optician#2026" }),
      });
      expect(login.status).toBe(200);
      const { ticket } = await login.json();
      const lens = { companyID: "demo-company-lens", catalogResourceKey: "DLAG-DE", revision: "2" };
      const downloads = await Promise.all(
        [lens, { ...lens, ticket }].map((query) =>
          routeFetch(`${ISSUER}/getSubCatalog.ashx?${new URLSearchParams(query)}`),
        ),
      );
      expect(statuses(downloads)).toEqual([200, 200]);
      const [anonymous, customer] = await Promise.all(downloads.map((response) => response.text()));
      const articles = (xml: string) => [...xml.matchAll(/articleNumber="([^"]+)"/g)].map((match) => match[1]).sort();
      expect(articles(anonymous)).toEqual(["SV-150", "SV-160", "WL-100"]);
      expect(articles(customer)).toEqual(["PR-160", "SV-150", "SV-160", "WL-100"]);

      const health = await routeFetch(`${ISSUER}/api/health`);
      expect(health.status).toBe(200);
    });

    it("lets two instances share it: one redeems the other's code, each rotates a refresh token in turn", async () => {
      const other = instance("transaction");
      const redeemed = await other(await nativeRedemption());
      expect(redeemed.status).toBe(200);
      await rotateThrough([routeHandlers, other, routeHandlers, other], (await redeemed.json()).refresh_token);

      const token = await webRefreshToken();
      const slides = [routeHandlers, other, routeHandlers, other].map((endpoint) => endpoint(webRefresh(token)));
      expect(statuses(await Promise.all(slides))).toEqual([200, 200, 200, 200]);
    });

    it("lets two migrators of a new database take turns through it (a lock of their one transaction)", async () => {
      const fresh = await createTestDatabase({ migrate: false });
      try {
        const target = throughPooler(fresh.target, "transaction");
        const runs = await Promise.all([applyMigrations(target), applyMigrations(target)]);
        const all = readMigrations(migrationsDirectory(), "postgresql").map((migration) => migration.id);
        expect(runs.map((applied) => applied.length).sort((a, b) => a - b)).toEqual([0, all.length]);
      } finally {
        await fresh.drop();
      }
    });

    it("fails without DATABASE_POOLER=transaction: two instances' named statements meet on its connections", async () => {
      const [one, two] = [instance("session"), instance("session")];
      const token = await webRefreshToken();
      const errors = vi.spyOn(logger, "error");
      try {
        const answers: number[] = [];
        for (let round = 0; round < 5; round++)
          for (const endpoint of [one, two]) answers.push((await endpoint(webRefresh(token))).status);
        expect(answers).toContain(500);
        const causes = errors.mock.calls.map(([fields]) => (fields as { err?: Error }).err?.message);
        expect(causes.length).toBeGreaterThan(0);
        for (const cause of causes)
          expect(cause).toMatch(/^prepared statement "optigate_\w+" (already exists|does not exist)$/);
      } finally {
        errors.mockRestore();
      }
    });
  },
);
