/**
 * `npm run bench`: the token endpoint against node-oidc-provider (scripts/bench/token-bench.ts), the federation grant,
 * and the catalog services, each next to baselines measured in the same run, on PostgreSQL what a transaction-mode
 * pooler costs (scripts/bench/pooler-bench.ts), what exporting traces costs (scripts/bench/tracing-bench.ts), and
 * password sign-ins with scrypt and Argon2id hashes (scripts/bench/password-bench.ts), and the operator's dashboard
 * over a large audit trail (scripts/bench/dashboard-bench.ts).
 * Servers run on CPU 0, autocannon in this process on CPU 1, on SQLite and (when reachable) PostgreSQL.
 * Settings: BENCH_SECONDS (5), BENCH_CONNECTIONS (16), BENCH_POSTGRES_ADMIN_URL (postgresql://postgres@127.0.0.1:5432/test),
 * BENCH_SMOKE=1 (every part once at a small scale, failing on any failed request: what CI runs).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { parseDatabaseUrl, type DatabaseTarget } from "@/lib/config/database-url";
import { benchCatalogs, reportCatalogs } from "./bench/catalog-part";
import { partnerClientAuthorization, prepareFederationBench } from "./bench/federation-bench";
import { backend, prepareBenchFixtures } from "./bench/fixtures";
import {
  CONNECTIONS,
  freePort,
  haveTaskset,
  measure,
  onServerCore,
  OPTIGATE_SERVER,
  results,
  SECONDS,
  SERVER_CPU,
  SMOKE,
  startServer,
  stop,
  waitFor,
  WARMUP_SECONDS,
  type Measurement,
} from "./bench/runner";
import { benchAtScale, benchTokenGrants, reportTokens } from "./bench/token-bench";
import { benchPasswords, reportPasswords } from "./bench/password-bench";
import { benchDashboard, reportDashboard } from "./bench/dashboard-bench";
import { benchPeople, reportPeople, type PeopleResult } from "./bench/people-bench";
import { benchPooler, reportPooler } from "./bench/pooler-bench";
import { benchRouteHandlers, reportRouteHandlers } from "./bench/route-handler-bench";
import { benchTracing, reportTracing } from "./bench/tracing-bench";

const PG_ADMIN_URL = process.env.BENCH_POSTGRES_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

const baselinesScript = path.join(import.meta.dirname, "bench", "baselines.ts");

/** Sequential signing rates of jose and node:crypto on the server core, measured now. */
function signRatesNow(): Record<string, number> {
  const command = [process.execPath, "--import", "tsx", baselinesScript, "--sign-rate"];
  const argv = haveTaskset ? [...SERVER_CPU, ...command] : command;
  return JSON.parse(execFileSync(argv[0], argv.slice(1)).toString());
}

/** A bare node:http endpoint on the server core that answers every request with one freshly signed `alg` JWT. */
async function measureBareEndpoint(alg: "ES256" | "RS256", name: string): Promise<void> {
  const port = await freePort();
  const child = onServerCore([process.execPath, "--import", "tsx", baselinesScript, "--serve", String(port), alg], {});
  try {
    await waitFor(`http://127.0.0.1:${port}/`);
    await measure(name, `http://127.0.0.1:${port}`, {
      method: "POST",
      path: "/",
      body: "grant_type=client_credentials",
    });
  } finally {
    await stop(child);
  }
}

async function baselines(): Promise<void> {
  const rates = signRatesNow();
  console.log("baselines (sequential signing on the server core):");
  for (const [name, opsPerSecond] of Object.entries(rates))
    console.log(`  ${name.padEnd(48)} ${String(opsPerSecond).padStart(6)} signatures/s`);
  await measureBareEndpoint("ES256", "bare node:http + ES256 JWT (baseline)");
}

/** The jwt-bearer grant (one more ES256 verification and two writes) next to client_credentials, same server. */
async function benchFederation(target: DatabaseTarget): Promise<void> {
  await prepareBenchFixtures(target, "ES256", 0, 0);
  const partner = await prepareFederationBench(target);
  const { child, baseUrl } = await startServer(OPTIGATE_SERVER, target, "ES256");
  try {
    const audience = baseUrl.replace("127.0.0.1", "localhost");
    await measure(`${target.provider} ES256 client_credentials (federation baseline)`, baseUrl, {
      method: "POST",
      path: "/connect/token",
      headers: backend,
      body: "grant_type=client_credentials",
    });
    await measure(`${target.provider} ES256 jwt-bearer`, baseUrl, {
      method: "POST",
      path: "/connect/token",
      headers: { authorization: partnerClientAuthorization },
      nextBody: () => partner.nextBody(audience),
    });
  } finally {
    await stop(child);
  }
}

const peopleResults: PeopleResult[] = [];
const dashboardResults: Measurement[] = [];

async function postgresTarget(): Promise<{ target: DatabaseTarget; drop: () => Promise<void> } | undefined> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`PostgreSQL not reachable at ${PG_ADMIN_URL} (${(error as Error).message}): skipped`);
    return undefined;
  }
  const name = `optigate_bench_${process.pid}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    target: parseDatabaseUrl(url.toString()),
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

function report(rawRates: Record<string, number>): void {
  const check = (label: string, ok: boolean) => console.log(`  ${ok ? "met   " : "MISSED"} ${label}`);
  reportTokens(rawRates, check);
  reportPooler();
  reportRouteHandlers(check);
  reportTracing(check);
  console.log("\nother targets (per server core):");
  for (const provider of ["sqlite", "postgresql"]) {
    const cc = results.find((r) => r.name === `${provider} ES256 client_credentials (federation baseline)`);
    const bearer = results.find((r) => r.name === `${provider} ES256 jwt-bearer`);
    if (cc && bearer)
      check(
        `${provider}: jwt-bearer >= 70% of client_credentials (${bearer.rps} vs ${cc.rps} req/s, ${(bearer.rps / cc.rps).toFixed(2)})`,
        bearer.rps >= 0.7 * cc.rps,
      );
  }
  reportPeople(peopleResults, check);
  reportPasswords(check);
  reportDashboard(dashboardResults, check);
  const errors = results.reduce((sum, r) => sum + r.errors, 0);
  check(`zero errors in every scenario (${errors})`, errors === 0);
  reportCatalogs(check);
}

/**
 * `npm run bench -- tokens`, `-- route-handlers`, `-- tracing`, `-- catalogs`, `-- federation`, `-- people`,
 * `-- passwords`, `-- dashboard` or `-- pooler` runs one part; without one all run.
 */
const PART = process.argv[2];
const PARTS = [
  "tokens",
  "route-handlers",
  "tracing",
  "catalogs",
  "federation",
  "people",
  "passwords",
  "dashboard",
  "pooler",
];

async function main(): Promise<void> {
  if (PART !== undefined && !PARTS.includes(PART)) throw new Error(`unknown part "${PART}": use ${PARTS.join(", ")}`);
  if (!existsSync(".next/BUILD_ID")) throw new Error("run `npm run build` first (npm run bench does)");
  if (haveTaskset) execFileSync("taskset", ["-cp", "1", String(process.pid)], { stdio: "ignore" });
  console.log(
    `OptiGate benchmark on Node.js ${process.version}: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per scenario, ${haveTaskset ? "server on CPU 0, load on CPU 1" : "no CPU pinning"}\n`,
  );
  await baselines();
  let rawRates: Record<string, number> = {};
  const directory = mkdtempSync(path.join(tmpdir(), "optigate-bench-"));
  const postgres = await postgresTarget();
  try {
    if (PART === undefined || PART === "tokens" || PART === "route-handlers")
      await benchRouteHandlers(parseDatabaseUrl(`file:${path.join(directory, "next-only.db")}`));
    if (PART === undefined || PART === "tokens") {
      const sqlite = parseDatabaseUrl(`file:${path.join(directory, "tokens.db")}`);
      const targets = postgres ? [sqlite, postgres.target] : [sqlite];
      rawRates = await benchTokenGrants(targets, signRatesNow, measureBareEndpoint);
      console.log("\ntoken endpoint on a grown database:");
      for (const target of targets) await benchAtScale(target);
    }
    if (PART === undefined || PART === "tracing") {
      console.log("\ntraces:");
      await benchTracing(parseDatabaseUrl(`file:${path.join(directory, "tracing.db")}`));
    }
    if (PART === undefined || PART === "federation") {
      console.log("\nfederation:");
      await benchFederation(parseDatabaseUrl(`file:${path.join(directory, "federation.db")}`));
      if (postgres) await benchFederation(postgres.target);
    }
    if (PART === undefined || PART === "catalogs") {
      console.log("\ncatalog services:");
      await benchCatalogs(parseDatabaseUrl(`file:${path.join(directory, "catalogs.db")}`), directory);
      if (postgres) await benchCatalogs(postgres.target, directory);
    }
    if (postgres && (PART === undefined || PART === "pooler")) {
      console.log("\nbehind a transaction-mode pooler:");
      await benchPooler(postgres.target, PG_ADMIN_URL);
    }
    if (PART === undefined || PART === "people") {
      console.log("\npeople and mail:");
      peopleResults.push(await benchPeople(parseDatabaseUrl(`file:${path.join(directory, "people.db")}`), directory));
      if (postgres) peopleResults.push(await benchPeople(postgres.target, directory));
    }
    if (PART === undefined || PART === "passwords") {
      console.log("\npassword sign-ins (SilentLogin):");
      await benchPasswords(parseDatabaseUrl(`file:${path.join(directory, "passwords.db")}`));
    }
    if (PART === undefined || PART === "dashboard") {
      console.log("\noperator dashboard over a large audit trail:");
      dashboardResults.push(await benchDashboard(parseDatabaseUrl(`file:${path.join(directory, "dashboard.db")}`)));
      if (postgres) dashboardResults.push(await benchDashboard(postgres.target));
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
    await postgres?.drop();
  }
  report(rawRates);
  // A smoke run's figures mean nothing, but a scenario that failed requests means a part is broken.
  const failed = results.filter((r) => r.errors > 0).map((r) => r.name);
  if (SMOKE && failed.length > 0) throw new Error(`scenarios with failed requests: ${failed.join("; ")}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
