/**
 * The token endpoint part of `npm run bench`: OptiGate as deployed (`scripts/serve.ts`) and node-oidc-provider (the
 * peer, scripts/bench/peer-provider.ts) run the same three grants with the same algorithm, one after the other on the
 * same core: client_credentials, refresh_token (openid offline_access and an API scope: an access token and an ID
 * token, both signed with the run's algorithm) and authorization_code redemption (the same scopes, no refresh token).
 * Then the same database grows to 1,000,000 refresh tokens, 100,000 users and 1,000 clients, and refresh and code
 * redemption run again; last, the purge of the operator CLI drains a backlog of 100,000 expired refresh tokens.
 */
import type { ChildProcess } from "node:child_process";
import type { DatabaseTarget } from "@/lib/config/database-url";
import { BENCH_REDIRECT_URI, prepareBenchFixtures } from "./fixtures";
import { freePort, measure, onServerCore, OPTIGATE_SERVER, result, results, SECRET_KEY, startServer, stop, CONNECTIONS } from "./runner";
import { runAdmin } from "./catalog-bench";
import { SCALE, seedScale } from "./scale-fixtures";

export type Algorithm = "ES256" | "RS256";
type Grant = "client_credentials" | "refresh_token" | "authorization_code";
const GRANTS: readonly Grant[] = ["client_credentials", "refresh_token", "authorization_code"];
const CODES = 40_000;
const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}` });
const REDIRECT = encodeURIComponent(BENCH_REDIRECT_URI);

interface GrantLoad {
  label: string;
  baseUrl: string;
  path: string;
  backend: Record<string, string>;
  web: Record<string, string>;
  refreshToken: string;
  codes: string[];
}

async function measureGrants(load: GrantLoad, grants: readonly Grant[] = GRANTS): Promise<void> {
  const post = (headers: Record<string, string>) => ({ method: "POST" as const, path: load.path, headers });
  for (const grant of grants) {
    const name = `${load.label} ${grant}`;
    if (grant === "client_credentials") await measure(name, load.baseUrl, { ...post(load.backend), body: "grant_type=client_credentials" });
    if (grant === "refresh_token") await measure(name, load.baseUrl, { ...post(load.web), body: `grant_type=refresh_token&refresh_token=${load.refreshToken}` });
    if (grant === "authorization_code") {
      let next = 0;
      await measure(name, load.baseUrl, { ...post(load.web), nextBody: () => `grant_type=authorization_code&redirect_uri=${REDIRECT}&code=${load.codes[next++ % load.codes.length]}` });
    }
  }
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

export async function benchPeer(alg: Algorithm): Promise<void> {
  const port = await freePort();
  const child = onServerCore([process.execPath, "--import", "tsx", "scripts/bench/peer-provider.ts", String(port), alg, String(CODES)], { NODE_ENV: "production" });
  try {
    const fixtures = JSON.parse(await firstLine(child)) as { refreshToken: string; codes: string[] };
    const baseUrl = `http://127.0.0.1:${port}`;
    await measureGrants({ label: `peer ${alg}`, baseUrl, path: "/token", backend: basic("backend", "backend-secret"), web: basic("web", "web-secret"), ...fixtures });
  } finally {
    await stop(child);
  }
}

export async function benchOptiGate(target: DatabaseTarget, alg: Algorithm, label = `${target.provider} ${alg}`, grants = GRANTS): Promise<void> {
  const fixtures = await prepareBenchFixtures(target, alg, CODES);
  const { child, baseUrl } = await startServer(OPTIGATE_SERVER, target, alg);
  try {
    await measureGrants({ label, baseUrl, path: "/connect/token", backend: basic("demo-backend", "demo-backend-secret"), web: basic("demo-web", "demo-web-secret"), refreshToken: fixtures.openidRefreshToken, codes: fixtures.codes }, grants);
  } finally {
    await stop(child);
  }
}

export const scaleLabel = (provider: string) => `${provider} ES256 at scale`;

/** After the empty-database runs on `target`: grow it, refresh and redeem codes again, then purge a backlog. */
export async function benchAtScale(target: DatabaseTarget): Promise<void> {
  const seconds = await seedScale(target);
  console.log(`  ${target.provider}: seeded ${SCALE.refreshTokens.toLocaleString("en")} refresh tokens, ${SCALE.users.toLocaleString("en")} users, ${SCALE.clients.toLocaleString("en")} clients in ${seconds.toFixed(1)} s`);
  await benchOptiGate(target, "ES256", scaleLabel(target.provider), ["refresh_token", "authorization_code"]);
  await seedScale(target, "expired backlog");
  const purge = await runAdmin(["purge"], { DATABASE_URL: target.url, SECRET_KEY, PUBLIC_URL: "http://localhost:3000", NODE_ENV: "production" });
  if (purge.code !== 0) throw new Error(`the purge failed:\n${purge.output}`);
  console.log(`  ${target.provider}: npm run admin -- purge drained ${SCALE.expiredBacklog.toLocaleString("en")} expired refresh tokens in ${purge.seconds.toFixed(1)} s (${purge.output.trim()})`);
}

/** The comparison with the peer, and the issue's targets. */
export function reportTokens(signRates: Record<string, number>, check: (label: string, ok: boolean) => void): void {
  console.log("\ntoken endpoint, OptiGate / node-oidc-provider (same algorithm, same core, same run):");
  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
  for (const alg of ["ES256", "RS256"] as const) {
    const peer = (grant: string) => result(`peer ${alg} ${grant}`);
    for (const provider of ["sqlite", "postgresql"]) {
      for (const grant of GRANTS) {
        const ours = result(`${provider} ${alg} ${grant}`);
        const theirs = peer(grant);
        if (ours && theirs) console.log(`  ${`${provider} ${alg} ${grant}`.padEnd(40)} ${String(ours.rps).padStart(6)} vs ${String(theirs.rps).padStart(6)} req/s  ratio ${ratio(ours.rps, theirs.rps).toFixed(2)}  p99 ${ours.p99} / ${theirs.p99} ms`);
      }
    }
  }
  const vsPeer = (name: string, alg: string, grant: string, factor: number) => {
    const ours = result(name);
    const theirs = result(`peer ${alg} ${grant}`);
    if (ours && theirs) check(`${name} >= ${factor}x node-oidc-provider (${ours.rps} vs ${theirs.rps} req/s, ${ratio(ours.rps, theirs.rps).toFixed(2)})`, ours.rps >= factor * theirs.rps);
  };
  vsPeer("sqlite ES256 client_credentials", "ES256", "client_credentials", 1.5);
  vsPeer("sqlite ES256 refresh_token", "ES256", "refresh_token", 1.5);
  vsPeer("sqlite ES256 authorization_code", "ES256", "authorization_code", 1.2);
  vsPeer("postgresql ES256 client_credentials", "ES256", "client_credentials", 1.2);
  vsPeer("postgresql ES256 refresh_token", "ES256", "refresh_token", 1.2);
  for (const provider of ["sqlite", "postgresql"]) {
    vsPeer(`${provider} RS256 refresh_token`, "RS256", "refresh_token", 1.2);
    const cc = result(`${provider} RS256 client_credentials`);
    const raw = signRates["node:crypto RS256"];
    if (cc) check(`${provider} RS256 client_credentials >= 85% of raw RS256 signing on one core (${cc.rps} vs ${raw}/s, ${Math.round((100 * cc.rps) / raw)} %)`, cc.rps >= 0.85 * raw);
    for (const grant of ["refresh_token", "authorization_code"]) {
      const empty = result(`${provider} ES256 ${grant}`);
      const grown = result(`${scaleLabel(provider)} ${grant}`);
      if (empty && grown) check(`${provider} ${grant} with ${SCALE.refreshTokens.toLocaleString("en")} refresh tokens within 10% of the empty database (${grown.rps} vs ${empty.rps} req/s, ${ratio(grown.rps, empty.rps).toFixed(2)})`, grown.rps >= 0.9 * empty.rps);
    }
  }
  const rows = results.filter((r) => GRANTS.some((grant) => r.name.endsWith(grant)) && /^(sqlite|postgresql|peer) /.test(r.name) && !r.name.includes("federation"));
  const ours = rows.filter((r) => !r.name.startsWith("peer"));
  if (ours.length > 0) {
    const worst = ours.reduce((a, b) => (b.p99 > a.p99 ? b : a));
    check(`p99 < 20 ms at ${CONNECTIONS} connections on every OptiGate token row (worst ${worst.p99} ms, ${worst.name})`, worst.p99 < 20);
  }
  const errors = rows.reduce((sum, r) => sum + r.errors, 0);
  check(`zero errors on every token row, OptiGate and peer (${errors})`, errors === 0);
}
