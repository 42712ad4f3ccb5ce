/**
 * The token endpoint part of `npm run bench`: OptiGate as deployed (`scripts/serve.ts`, on SQLite and PostgreSQL)
 * and node-oidc-provider (the peer, scripts/bench/peer-provider.ts) run the same three grants with the same algorithm
 * on the same core: client_credentials, refresh_token (openid offline_access and an API scope: an access token and an
 * ID token, both signed with the run's algorithm; each request presents the next of 20,000 refresh tokens) and
 * authorization_code redemption (the same scopes, no refresh token; each request a fresh code); OptiGate also runs
 * client_credentials and refresh_token with a DPoP proof per request, each right after the same grant without. The
 * servers of one algorithm run side by side and take turns per grant, right after the raw signing rate
 * is measured, so that the machine's drift over minutes falls on all of them alike. Then each database grows to
 * 1,000,000 refresh tokens, 100,000 users and 1,000 clients, between two runs of refresh and code redemption; last,
 * the purge of the operator CLI drains a backlog of 100,000 expired refresh tokens.
 */
import type { ChildProcess } from "node:child_process";
import type { DatabaseTarget } from "@/lib/config/database-url";
import { BENCH_REDIRECT_URI, prepareBenchFixtures } from "./fixtures";
import { dpopProofMaker } from "./dpop-proofs";
import {
  freePort,
  measure,
  onServerCore,
  OPTIGATE_SERVER,
  residentBytes,
  result,
  results,
  SECRET_KEY,
  sized,
  SMOKE,
  startServer,
  stop,
  CONNECTIONS,
  CONTAINER_NODE_OPTIONS,
} from "./runner";
import { runAdmin } from "./catalog-bench";
import { SCALE, seedScale } from "./scale-fixtures";

export type Algorithm = "ES256" | "RS256";
type PlainGrant = "client_credentials" | "refresh_token" | "authorization_code";
/** The same grant with an ES256 DPoP proof per request (RFC 9449): one more verification and one replay entry. */
type DpopGrant = `${"client_credentials" | "refresh_token"} with DPoP`;
type Grant = PlainGrant | DpopGrant;
const GRANTS: readonly PlainGrant[] = ["client_credentials", "refresh_token", "authorization_code"];
const DPOP_GRANTS: readonly DpopGrant[] = ["client_credentials with DPoP", "refresh_token with DPoP"];
/** Signatures per response: an access token, and for the user grants an ID token too. */
const SIGNATURES: Record<PlainGrant, number> = { client_credentials: 1, refresh_token: 2, authorization_code: 2 };
/** Each redemption spends a code: enough for warm-up and measurement at 14,000 requests a second. */
const CODES = sized(100_000, 8_000);
/** Each refresh presents the next of these, as real clients refresh many tokens, each now and then. */
const REFRESH_TOKENS = sized(20_000, 1_000);
const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`,
});
const REDIRECT = encodeURIComponent(BENCH_REDIRECT_URI);

interface GrantLoad {
  label: string;
  baseUrl: string;
  /** where DPoP proofs point (htu); the peer is not measured with DPoP */
  tokenEndpoint?: string;
  path: string;
  backend: Record<string, string>;
  web: Record<string, string>;
  refreshTokens: string[];
  codes: string[];
}

function measureGrant(load: GrantLoad, grant: Grant): Promise<unknown> {
  const proof = grant.endsWith("with DPoP") && load.tokenEndpoint ? dpopProofMaker(load.tokenEndpoint) : undefined;
  const post = (headers: Record<string, string>) => ({
    method: "POST" as const,
    path: load.path,
    headers,
    nextHeaders: proof && (() => ({ dpop: proof() })),
  });
  const name = `${load.label} ${grant}`;
  if (grant.startsWith("client_credentials"))
    return measure(name, load.baseUrl, { ...post(load.backend), body: "grant_type=client_credentials" });
  let next = 0;
  if (grant.startsWith("refresh_token"))
    return measure(name, load.baseUrl, {
      ...post(load.web),
      nextBody: () =>
        `grant_type=refresh_token&refresh_token=${load.refreshTokens[next++ % load.refreshTokens.length]}`,
    });
  return measure(name, load.baseUrl, {
    ...post(load.web),
    nextBody: () =>
      `grant_type=authorization_code&redirect_uri=${REDIRECT}&code=${load.codes[next++ % load.codes.length]}`,
  });
}

/** The first line the child prints; whatever follows is read and dropped. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const end = buffered.indexOf("\n");
      if (end >= 0) resolve(buffered.slice(0, end));
    });
    child.once("exit", () => reject(new Error("the peer exited before it listened")));
  });
}

interface RunningServer {
  child: ChildProcess;
  load: GrantLoad;
  /** OptiGate's resident memory once started and left alone, in MB */
  idleMb?: number;
}

/** OptiGate's resident memory per server: idle after its start, and after every grant's load. */
const memory: { label: string; idleMb: number; loadedMb: number }[] = [];
/** How long a started server is left alone before its idle memory is read. */
const IDLE_SECONDS = sized(5, 1);
const residentMb = (child: ChildProcess) => residentBytes(child.pid!) / 1024 / 1024;

async function startPeer(alg: Algorithm): Promise<RunningServer> {
  const port = await freePort();
  const child = onServerCore(
    [
      process.execPath,
      "--import",
      "tsx",
      "scripts/bench/peer-provider.ts",
      String(port),
      alg,
      String(CODES),
      String(REFRESH_TOKENS),
    ],
    { NODE_ENV: "production" },
  );
  const fixtures = JSON.parse(await firstLine(child)) as { refreshTokens: string[]; codes: string[] };
  return {
    child,
    load: {
      label: `peer ${alg}`,
      baseUrl: `http://127.0.0.1:${port}`,
      path: "/token",
      backend: basic("backend", "backend-secret"),
      web: basic("web", "web-secret"),
      ...fixtures,
    },
  };
}

export async function startOptiGate(
  target: DatabaseTarget,
  alg: Algorithm,
  label = `${target.provider} ${alg}`,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const fixtures = await prepareBenchFixtures(target, alg, CODES, REFRESH_TOKENS);
  const { child, baseUrl, publicUrl } = await startServer(OPTIGATE_SERVER, target, alg, env);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const idleMb = residentMb(child);
  const load = {
    label,
    baseUrl,
    tokenEndpoint: `${publicUrl}/connect/token`,
    path: "/connect/token",
    backend: basic("demo-backend", "demo-backend-secret"),
    web: basic("demo-web", "demo-web-secret"),
    refreshTokens: fixtures.refreshTokens,
    codes: fixtures.codes,
  };
  return { child, load, idleMb };
}

/**
 * The servers are started one after the other (their fixtures, made in this process, would otherwise compete), then
 * take turns per grant; all are stopped afterwards.
 */
export async function takeTurns(servers: (() => Promise<RunningServer>)[], grants: readonly Grant[]): Promise<void> {
  const running: RunningServer[] = [];
  try {
    for (const start of servers) running.push(await start());
    for (const grant of grants)
      for (const server of running)
        if (server.load.tokenEndpoint || !grant.endsWith("with DPoP")) await measureGrant(server.load, grant);
    for (const { child, load, idleMb } of running)
      if (idleMb !== undefined) memory.push({ label: load.label, idleMb, loadedMb: residentMb(child) });
  } finally {
    await Promise.all(running.map((server) => stop(server.child)));
  }
}

export const bareLabel = (alg: Algorithm) => `bare node:http + ${alg} JWT, just before`;

/**
 * For each algorithm: its raw signing rate on the server core and a bare node:http endpoint that only signs (what
 * any Node server reaches at best), then the peer and OptiGate on every target.
 */
export async function benchTokenGrants(
  targets: DatabaseTarget[],
  signRatesNow: () => Record<string, number>,
  measureBareEndpoint: (alg: Algorithm, name: string) => Promise<void>,
): Promise<Record<string, number>> {
  const rawRates: Record<string, number> = {};
  // A smoke run checks that each part runs; one algorithm shows that.
  for (const alg of SMOKE ? (["ES256"] as const) : (["ES256", "RS256"] as const)) {
    rawRates[alg] = signRatesNow()[`node:crypto ${alg}`];
    console.log(`  raw node:crypto ${alg} signing on the server core, just before: ${rawRates[alg]} signatures/s`);
    await measureBareEndpoint(alg, bareLabel(alg));
    // Each DPoP grant right after the same grant without: the machine's drift falls on both alike.
    const grants: Grant[] = [
      "client_credentials",
      DPOP_GRANTS[0],
      "refresh_token",
      DPOP_GRANTS[1],
      "authorization_code",
    ];
    await takeTurns([() => startPeer(alg), ...targets.map((target) => () => startOptiGate(target, alg))], grants);
  }
  return rawRates;
}

export const scaleLabel = (provider: string) => `${provider} ES256 at scale`;

export const beforeGrowthLabel = (provider: string) => `${provider} ES256 before growth`;

/** Refresh and code redemption on `target`, then again once it has grown; then the purge of a backlog. */
export async function benchAtScale(target: DatabaseTarget): Promise<void> {
  const grants: Grant[] = ["refresh_token", "authorization_code"];
  await takeTurns([() => startOptiGate(target, "ES256", beforeGrowthLabel(target.provider))], grants);
  const seconds = await seedScale(target);
  console.log(
    `  ${target.provider}: seeded ${SCALE.refreshTokens.toLocaleString("en")} refresh tokens, ${SCALE.users.toLocaleString("en")} users, ${SCALE.clients.toLocaleString("en")} clients in ${seconds.toFixed(1)} s`,
  );
  await takeTurns([() => startOptiGate(target, "ES256", scaleLabel(target.provider))], grants);
  await seedScale(target, "expired backlog");
  const purge = await runAdmin(["purge"], {
    DATABASE_URL: target.url,
    SECRET_KEY,
    PUBLIC_URL: "http://localhost:3000",
    NODE_ENV: "production",
  });
  if (purge.code !== 0) throw new Error(`the purge failed:\n${purge.output}`);
  console.log(
    `  ${target.provider}: npm run admin -- purge drained ${SCALE.expiredBacklog.toLocaleString("en")} expired refresh tokens in ${purge.seconds.toFixed(1)} s (${purge.output.trim()})`,
  );
}

/** OptiGate's resident memory, with the Dockerfile's heap limits, against the targets for a 512 MiB container. */
function reportMemory(check: (label: string, ok: boolean) => void): void {
  console.log(`\nresident memory of OptiGate (npm start, NODE_OPTIONS="${CONTAINER_NODE_OPTIONS}"):`);
  for (const { label, idleMb, loadedMb } of memory) {
    const [idle, loaded] = [idleMb.toFixed(0), loadedMb.toFixed(0)];
    if (label.endsWith("ES256")) {
      check(`${label}: idle ${idle} MB <= 200 MB`, idleMb <= 200);
      check(`${label}: after the token load ${loaded} MB <= 300 MB`, loadedMb <= 300);
    } else console.log(`  ${label}: idle ${idle} MB, after the token load ${loaded} MB`);
  }
}

/** ES256 client_credentials next to the bare node:http endpoint that only signs, measured just before. */
function reportBareShare(check: (label: string, ok: boolean) => void): void {
  const bare = result(bareLabel("ES256"));
  for (const provider of ["sqlite", "postgresql"]) {
    const cc = result(`${provider} ES256 client_credentials`);
    if (cc && bare)
      check(
        `${provider} ES256 client_credentials >= 0.6 of a bare node:http endpoint that only signs (${cc.rps} vs ${bare.rps} req/s, ${(cc.rps / bare.rps).toFixed(2)})`,
        cc.rps >= 0.6 * bare.rps,
      );
  }
}

/** The comparison with the peer, and the issue's targets. */
export function reportTokens(rawRates: Record<string, number>, check: (label: string, ok: boolean) => void): void {
  console.log("\ntoken endpoint, OptiGate / node-oidc-provider (same algorithm, same core, same run):");
  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
  for (const alg of ["ES256", "RS256"] as const) {
    const peer = (grant: string) => result(`peer ${alg} ${grant}`);
    for (const provider of ["sqlite", "postgresql"]) {
      for (const grant of GRANTS) {
        const ours = result(`${provider} ${alg} ${grant}`);
        const theirs = peer(grant);
        if (ours && theirs)
          console.log(
            `  ${`${provider} ${alg} ${grant}`.padEnd(40)} ${String(ours.rps).padStart(6)} vs ${String(theirs.rps).padStart(6)} req/s  ratio ${ratio(ours.rps, theirs.rps).toFixed(2)}  p99 ${ours.p99} / ${theirs.p99} ms`,
          );
      }
    }
  }
  const vsPeer = (name: string, alg: string, grant: string, factor: number) => {
    const ours = result(name);
    const theirs = result(`peer ${alg} ${grant}`);
    if (ours && theirs)
      check(
        `${name} >= ${factor}x node-oidc-provider (${ours.rps} vs ${theirs.rps} req/s, ${ratio(ours.rps, theirs.rps).toFixed(2)})`,
        ours.rps >= factor * theirs.rps,
      );
  };
  reportMemory(check);
  console.log("\nDPoP (an ES256 proof per request) / the same grant without, same server, same run:");
  for (const alg of ["ES256", "RS256"] as const)
    for (const provider of ["sqlite", "postgresql"])
      for (const grant of DPOP_GRANTS) {
        const [withProof, without] = [
          result(`${provider} ${alg} ${grant}`),
          result(`${provider} ${alg} ${grant.split(" ")[0]}`),
        ];
        if (withProof && without)
          check(
            `${provider} ${alg} ${grant} >= 0.8x without (${withProof.rps} vs ${without.rps} req/s, ${ratio(withProof.rps, without.rps).toFixed(2)})`,
            withProof.rps >= 0.8 * without.rps,
          );
      }
  vsPeer("sqlite ES256 client_credentials", "ES256", "client_credentials", 1.5);
  vsPeer("sqlite ES256 refresh_token", "ES256", "refresh_token", 2);
  reportBareShare(check);
  vsPeer("sqlite ES256 authorization_code", "ES256", "authorization_code", 1.2);
  vsPeer("postgresql ES256 client_credentials", "ES256", "client_credentials", 1.2);
  vsPeer("postgresql ES256 refresh_token", "ES256", "refresh_token", 1.2);
  for (const provider of ["sqlite", "postgresql"]) {
    vsPeer(`${provider} RS256 refresh_token`, "RS256", "refresh_token", 1.2);
    const cc = result(`${provider} RS256 client_credentials`);
    const raw = rawRates.RS256;
    const bare = result(bareLabel("RS256"));
    const bareShare = bare
      ? `; a bare node:http endpoint that only signs: ${bare.rps} req/s, ${Math.round((100 * bare.rps) / raw)} %`
      : "";
    if (cc)
      check(
        `${provider} RS256 client_credentials >= 85% of raw RS256 signing on one core (${cc.rps} vs ${raw}/s, ${Math.round((100 * cc.rps) / raw)} %${bareShare})`,
        cc.rps >= 0.85 * raw,
      );
    for (const grant of ["refresh_token", "authorization_code"]) {
      const empty = result(`${beforeGrowthLabel(provider)} ${grant}`);
      const grown = result(`${scaleLabel(provider)} ${grant}`);
      if (empty && grown)
        check(
          `${provider} ${grant} with ${SCALE.refreshTokens.toLocaleString("en")} refresh tokens within 10% of the same database before (demo data only) (${grown.rps} vs ${empty.rps} req/s, ${ratio(grown.rps, empty.rps).toFixed(2)})`,
          grown.rps >= 0.9 * empty.rps,
        );
    }
  }
  const rows = results.filter(
    (r) =>
      [...GRANTS, ...DPOP_GRANTS].some((grant) => r.name.endsWith(grant)) &&
      /^(sqlite|postgresql|peer) /.test(r.name) &&
      !r.name.includes("federation"),
  );
  const ours = rows.filter((r) => !r.name.startsWith("peer"));
  if (ours.length > 0) {
    const worst = ours.reduce((a, b) => (b.p99 > a.p99 ? b : a));
    check(
      `p99 < 20 ms at ${CONNECTIONS} connections on every OptiGate token row (worst ${worst.p99} ms, ${worst.name})`,
      worst.p99 < 20,
    );
  }
  // Little's law: a closed loop of CONNECTIONS clients on one core waits on average at least CONNECTIONS requests'
  // signing time, whatever the server does around it; p99 cannot be below that mean.
  for (const alg of ["ES256", "RS256"] as const) {
    const floors = GRANTS.map(
      (grant) => `${grant} ${((1000 * CONNECTIONS * SIGNATURES[grant]) / rawRates[alg]).toFixed(1)} ms`,
    );
    if (rawRates[alg])
      console.log(
        `  ${alg} signing alone sets a mean latency of at least (${CONNECTIONS} connections × signatures per request / raw rate): ${floors.join(", ")}`,
      );
  }
  const errors = rows.reduce((sum, r) => sum + r.errors, 0);
  check(`zero errors on every token row, OptiGate and peer (${errors})`, errors === 0);
}
