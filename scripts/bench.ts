/**
 * `npm run bench`: the token endpoint against node-oidc-provider (scripts/bench/token-bench.ts), the federation grant,
 * and the catalog services, each next to baselines measured in the same run. Servers run on CPU 0, autocannon in this
 * process on CPU 1, on SQLite and (when reachable) PostgreSQL.
 * Settings: BENCH_SECONDS (5), BENCH_CONNECTIONS (16), BENCH_POSTGRES_ADMIN_URL (postgresql://postgres@127.0.0.1:5432/test).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { parseDatabaseUrl, type DatabaseTarget } from "@/lib/config/database-url";
import {
  ARTICLES,
  IMPORT_HEAP_MB,
  measureDownloads,
  prepareCatalogBench,
  RUNS,
  rawWriteRate,
  runAdmin,
  writeCatalogFile,
  type CliRun,
} from "./bench/catalog-bench";
import { ARTICLE_PAGE_LIMIT, benchApi, type ArticlePagesMeasurement } from "./bench/api-bench";
import { partnerClientAuthorization, prepareFederationBench } from "./bench/federation-bench";
import { prepareBenchFixtures } from "./bench/fixtures";
import {
  CONNECTIONS,
  freePort,
  haveTaskset,
  measure,
  onServerCore,
  OPTIGATE_SERVER,
  results,
  SECONDS,
  SECRET_KEY,
  SERVER_CPU,
  startServer,
  stop,
  waitFor,
  WARMUP_SECONDS,
} from "./bench/runner";
import { benchAtScale, benchTokenGrants, reportTokens } from "./bench/token-bench";
import { benchPeople, reportPeople, type PeopleResult } from "./bench/people-bench";

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

const backend = { authorization: `Basic ${Buffer.from("demo-backend:demo-backend-secret").toString("base64")}` };

/** The same token handler served by plain `next start`, without the lean front: what the front saves. */
async function benchWithoutFront(target: DatabaseTarget): Promise<void> {
  await prepareBenchFixtures(target, "ES256", 0, 0);
  const { child, baseUrl } = await startServer(
    [process.execPath, "node_modules/next/dist/bin/next", "start", "-p", "$PORT"],
    target,
    "ES256",
  );
  try {
    await measure("next start only, ES256 client_credentials", baseUrl, {
      method: "POST",
      path: "/connect/token",
      headers: backend,
      body: "grant_type=client_credentials",
    });
  } finally {
    await stop(child);
  }
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

interface CatalogResult {
  provider: string;
  raw: number;
  download: Awaited<ReturnType<typeof measureDownloads>>;
  importRun: CliRun;
  listRun: CliRun;
  pages: ArticlePagesMeasurement;
}
const catalogResults: CatalogResult[] = [];
const peopleResults: PeopleResult[] = [];

/**
 * getSubCatalog of 200,000 articles against writing the same XML to /dev/null; the CLI importing a file of 200,000
 * articles against the same CLI listing catalogs (its memory without an import); getCatalogInfos with 500 suppliers.
 */
async function benchCatalogs(target: DatabaseTarget, directory: string): Promise<void> {
  // One refresh token: the API part exchanges it for a user's access token.
  const fixtures = await prepareBenchFixtures(target, "ES256", 0, 1);
  await prepareCatalogBench(target);
  const raw = await rawWriteRate(target);
  const { child, baseUrl } = await startServer(OPTIGATE_SERVER, target, "ES256");
  try {
    // Warm-up: the first request to each route loads its code.
    await fetch(`${baseUrl}/getCatalogInfos.ashx`).then((r) => r.text());
    await fetch(`${baseUrl}/getSubCatalog.ashx?companyID=demo-company-lens&catalogResourceKey=DLAG-DE&revision=2`).then(
      (r) => r.text(),
    );
    const download = await measureDownloads(baseUrl, child);
    const cliEnv = {
      DATABASE_URL: target.url,
      SECRET_KEY,
      PUBLIC_URL: "http://localhost:3000",
      NODE_ENV: "production",
    };
    const file = path.join(directory, `import-${target.provider}.xml`);
    const fileBytes = await writeCatalogFile(file, ARTICLES);
    const listRun = await runAdmin(["catalogs", "list", "DLAG"], cliEnv);
    const importRun = await runAdmin(["catalogs", "import", file], cliEnv, [`--max-old-space-size=${IMPORT_HEAP_MB}`]);
    if (importRun.code !== 0)
      throw new Error(`the bench import failed (exit ${importRun.code}):\n${importRun.output.slice(-2000)}`);
    const pages = await benchApi(baseUrl, child, target.provider, fixtures.refreshTokens[0], measure);
    catalogResults.push({ provider: target.provider, raw: raw.articlesPerSecond, download, importRun, listRun, pages });
    console.log(
      `  ${`${target.provider} getSubCatalog ${ARTICLES} articles`.padEnd(48)} ${download.articlesPerSecond} articles/s, ${download.megabytesPerSecond.toFixed(1)} MB/s, first byte ${download.firstByteMs} ms, peak memory +${download.peakGrowthMb.toFixed(1)} MB (raw write: ${raw.articlesPerSecond} articles/s; medians of ${RUNS} runs, worst first byte and memory)`,
    );
    console.log(
      `  ${`${target.provider} import ${ARTICLES} articles (CLI)`.padEnd(48)} ${importRun.seconds.toFixed(1)} s, ${Math.round(ARTICLES / importRun.seconds)} articles/s, ${(fileBytes / 1e6).toFixed(1)} MB file, JavaScript heap capped at ${IMPORT_HEAP_MB} MB, peak resident memory ${importRun.peakMb.toFixed(1)} MB (CLI listing catalogs: ${listRun.peakMb.toFixed(1)} MB)`,
    );
    await measure(`${target.provider} getCatalogInfos, 500 suppliers, anonymous`, baseUrl, {
      method: "GET",
      path: "/getCatalogInfos.ashx",
    });
  } finally {
    await stop(child);
  }
}

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
  const bare = results.find((r) => r.name === "bare node:http + ES256 JWT (baseline)");
  const nextOnly = results.find((r) => r.name.startsWith("next start only"));
  if (bare && nextOnly)
    console.log(
      `\nbare node:http ES256 endpoint ${bare.rps} req/s; the token handler through plain next start ${nextOnly.rps} req/s (${(nextOnly.rps / bare.rps).toFixed(2)} of bare)`,
    );
  const check = (label: string, ok: boolean) => console.log(`  ${ok ? "met   " : "MISSED"} ${label}`);
  reportTokens(rawRates, check);
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
  const errors = results.reduce((sum, r) => sum + r.errors, 0);
  check(`zero errors in every scenario (${errors})`, errors === 0);
  for (const { provider, raw, download, importRun, listRun, pages } of catalogResults) {
    const rate = (name: string) => results.find((r) => r.name === `${provider} ${name}`)!;
    const tokenRate = rate("token endpoint client_credentials (API baseline)");
    for (const kind of ["client", "optician"]) {
      const list = rate(`GET /v2/catalogs?limit=20, ${kind} token`);
      check(
        `${provider}: GET /v2/catalogs (20), ${kind} token >= token endpoint client_credentials (${list.rps} vs ${tokenRate.rps} req/s, ${(list.rps / tokenRate.rps).toFixed(2)}), p99 < 50 ms (${list.p99} ms)`,
        list.rps >= tokenRate.rps && list.p99 < 50,
      );
    }
    const anonymous = rate("getCatalogInfos, 500 suppliers, anonymous");
    check(
      `${provider}: getCatalogInfos anonymous >= 1,000 req/s (${anonymous.rps}), p99 < 100 ms (${anonymous.p99} ms)`,
      anonymous.rps >= 1000 && anonymous.p99 < 100,
    );
    for (const name of ["getCatalogInfos, 500 suppliers, ticket", "GET /v2/catalogs?limit=500, optician token"]) {
      const personal = rate(name);
      check(
        `${provider}: ${name} >= 300 req/s (${personal.rps}), p99 < 100 ms (${personal.p99} ms)`,
        personal.rps >= 300 && personal.p99 < 100,
      );
    }
    check(
      `${provider}: JSON article pages (${ARTICLE_PAGE_LIMIT}) >= 150,000 articles/s (${pages.articlesPerSecond}), all ${ARTICLES} read (${pages.articles}), memory growth < 100 MB (${pages.peakGrowthMb.toFixed(1)} MB)`,
      pages.articlesPerSecond >= 150_000 && pages.articles === ARTICLES && pages.peakGrowthMb < 100,
    );
    console.log(
      `  ${provider}: getSubCatalog at ${(download.articlesPerSecond / raw).toFixed(2)} of the raw write rate`,
    );
    check(`${provider}: all ${ARTICLES} articles downloaded (${download.articles})`, download.articles === ARTICLES);
    check(
      `${provider}: peak memory growth < 100 MB (${download.peakGrowthMb.toFixed(1)} MB)`,
      download.peakGrowthMb < 100,
    );
    check(`${provider}: time to first byte < 200 ms (${download.firstByteMs} ms)`, download.firstByteMs < 200);
    check(
      `${provider}: download >= 50% of the raw write rate (${Math.round((100 * download.articlesPerSecond) / raw)} %)`,
      download.articlesPerSecond >= raw / 2,
    );
    const importGrowth = importRun.peakMb - listRun.peakMb;
    check(
      `${provider}: import of ${ARTICLES} articles in a ${IMPORT_HEAP_MB} MB heap, resident memory < 100 MB over the idle CLI (${importGrowth.toFixed(1)} MB)`,
      importGrowth < 100,
    );
  }
}

/** `npm run bench -- tokens`, `-- catalogs`, `-- federation` or `-- people` runs one part; without one all run. */
const PART = process.argv[2];
const PARTS = ["tokens", "catalogs", "federation", "people"];

async function main(): Promise<void> {
  if (PART !== undefined && !PARTS.includes(PART)) throw new Error(`unknown part "${PART}": use ${PARTS.join(", ")}`);
  if (!existsSync(".next/BUILD_ID")) throw new Error("run `npm run build` first (npm run bench does)");
  if (haveTaskset) execFileSync("taskset", ["-cp", "1", String(process.pid)], { stdio: "ignore" });
  console.log(
    `OptiGate token endpoint benchmark: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per scenario, ${haveTaskset ? "server on CPU 0, load on CPU 1" : "no CPU pinning"}\n`,
  );
  await baselines();
  let rawRates: Record<string, number> = {};
  const directory = mkdtempSync(path.join(tmpdir(), "optigate-bench-"));
  const postgres = await postgresTarget();
  try {
    if (PART === undefined || PART === "tokens") {
      await benchWithoutFront(parseDatabaseUrl(`file:${path.join(directory, "next-only.db")}`));
      const sqlite = parseDatabaseUrl(`file:${path.join(directory, "tokens.db")}`);
      const targets = postgres ? [sqlite, postgres.target] : [sqlite];
      rawRates = await benchTokenGrants(targets, signRatesNow, measureBareEndpoint);
      console.log("\ntoken endpoint on a grown database:");
      for (const target of targets) await benchAtScale(target);
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
    if (PART === undefined || PART === "people") {
      console.log("\npeople and mail:");
      peopleResults.push(await benchPeople(parseDatabaseUrl(`file:${path.join(directory, "people.db")}`), directory));
      if (postgres) peopleResults.push(await benchPeople(postgres.target, directory));
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
    await postgres?.drop();
  }
  report(rawRates);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
