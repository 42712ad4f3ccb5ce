/**
 * Two OptiGate processes (scripts/serve.ts) on one PostgreSQL database behind a round-robin proxy that sends each
 * request to the other one: they start at once (migrations applied once, the rest of the preparation without
 * conflict), a user signs in through both, the code is redeemed at one and refreshed at the other, revoking the application at one ends the refresh at the other, the
 * login throttle counts across both, a DPoP proof used at one is a replay at the other, and a key rotation by the CLI
 * is published by both within their cache time.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import * as oidc from "openid-client";
import pg from "pg";
import { COMPILED_SERVER } from "../../scripts/compiled-server";
import { freePort } from "./raw-http";
import { dpopProof, proofKey } from "../helpers/dpop-proofs";
import { redirectToClient } from "./client-redirect";
import { startRoundRobinProxy, type RoundRobinProxy } from "./round-robin-proxy";

const ADMIN_URL = process.env.E2E_POSTGRES_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const SECRET_KEY = "several-instances-secret-key-0123456789";

interface Instance {
  port: number;
  process: ChildProcess;
  log: () => string;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function startInstance(port: number, env: Record<string, string>): Instance {
  const child = spawn(process.execPath, [COMPILED_SERVER], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return { port, process: child, log: () => output };
}

async function healthy(instance: Instance): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    if (instance.process.exitCode !== null) throw new Error(`instance on ${instance.port} exited:\n${instance.log()}`);
    const ok = await fetch(`http://127.0.0.1:${instance.port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`instance on ${instance.port} did not come up:\n${instance.log()}`);
}

const tokenAt = (instance: Instance, form: Record<string, string>) =>
  fetch(`http://127.0.0.1:${instance.port}/connect/token`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from("demo-web:demo-web-secret").toString("base64")}` },
    body: new URLSearchParams(form),
  });

const kidsAt = async (instance: Instance) =>
  (
    (await (await fetch(`http://127.0.0.1:${instance.port}/.well-known/openid-configuration/jwks`)).json()).keys as {
      kid: string;
    }[]
  ).map((key) => key.kid);

let database = "";
let databaseUrl = "";
let instances: Instance[] = [];
let proxy: RoundRobinProxy;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  database = `optigate_e2e_instances_${process.pid}`;
  await adminQuery(`CREATE DATABASE "${database}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  databaseUrl = url.toString();
  const proxyPort = await freePort();
  const env = {
    DATABASE_URL: databaseUrl,
    SECRET_KEY,
    PUBLIC_URL: `http://localhost:${proxyPort}`,
    DEMO_DATA: "1",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  // Both at once on the empty database.
  instances = [startInstance(await freePort(), env), startInstance(await freePort(), env)];
  await Promise.all(instances.map(healthy));
  proxy = await startRoundRobinProxy(
    proxyPort,
    instances.map((instance) => instance.port),
  );
});

test.afterAll(async () => {
  await proxy?.close();
  await Promise.all(
    instances.map(
      (instance) =>
        new Promise((resolve) =>
          instance.process.exitCode !== null
            ? resolve(null)
            : (instance.process.once("exit", resolve), instance.process.kill("SIGTERM")),
        ),
    ),
  );
  if (database) await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
});

test("two instances on one database: migrations once, sign-in across both, code and refresh at either, revocation and throttling shared", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // Started at once: one applied the migrations, the other found them applied.
  const applied = instances.filter((instance) => /Applied migrations: 0001_identity/.test(instance.log()));
  expect(applied).toHaveLength(1);
  const migrations = readdirSync("prisma/migrations").filter((name) => name.endsWith(".sql")).length;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  expect(Number((await client.query('SELECT count(*) AS n FROM "schema_migrations"')).rows[0].n)).toBe(migrations);
  await client.end();

  // Sign-in through the proxy: every request goes to the other instance than the one before.
  const page = await (await browser.newContext({ baseURL: proxy.url })).newPage();
  const web = await oidc.discovery(
    new URL(proxy.url),
    "demo-web",
    undefined,
    oidc.ClientSecretBasic("demo-web-secret"),
    { execute: [oidc.allowInsecureRequests] },
  );
  const state = oidc.randomState();
  const before = proxy.routed.length;
  await page.goto(
    oidc.buildAuthorizationUrl(web, {
      redirect_uri: "http://localhost:4000/callback",
      scope: "openid offline_access",
      state,
      prompt: "consent",
    }).href,
  );
  await page.fill("input[name=username]", "optician@demo.test");
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", "Optician#2026");
  await page.locator("button[type=submit]").click();
  await expect(page).toHaveURL(/\/consent\?/);
  const callback = await redirectToClient(page, "http://localhost:4000", () =>
    page.locator("button[name=decision][value=allow]").click(),
  );
  expect(new Set(proxy.routed.slice(before))).toEqual(new Set(instances.map((instance) => instance.port)));
  const code = callback.searchParams.get("code")!;

  // The code at the second instance, the refresh at the first.
  const [first, second] = instances;
  const redeemed = await tokenAt(second, {
    grant_type: "authorization_code",
    code,
    redirect_uri: "http://localhost:4000/callback",
  });
  expect(redeemed.status).toBe(200);
  const { refresh_token: refreshToken } = await redeemed.json();
  expect((await tokenAt(first, { grant_type: "refresh_token", refresh_token: refreshToken })).status).toBe(200);

  // Revoked through the proxy (either instance): the refresh fails at both at once, since tokens live in the database.
  await page.goto("/portal/applications");
  const entry = page.locator("[data-client-id=demo-web]");
  await entry.locator("button[name=revoke]").click();
  await entry.locator("button[name=confirm]").click();
  await expect(page.getByRole("status")).toContainText("was revoked");
  for (const instance of instances)
    expect(
      (await (await tokenAt(instance, { grant_type: "refresh_token", refresh_token: refreshToken })).json()).error,
    ).toBe("invalid_grant");

  // Five wrong passwords, alternating between the instances, lock the account at both.
  const guesser = await (await browser.newContext({ baseURL: proxy.url })).newPage();
  for (let attempt = 0; attempt < 5; attempt++) {
    await guesser.goto("/login");
    await guesser.fill("input[name=username]", "frames@demo.test");
    await guesser.locator("button[type=submit]").click();
    await guesser.fill("input[name=password]", `wrong-${attempt}`);
    await guesser.locator("button[type=submit]").click();
    await expect(guesser.locator("p[role=alert]")).toBeVisible();
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    await guesser.goto("/login");
    await guesser.fill("input[name=username]", "frames@demo.test");
    await guesser.locator("button[type=submit]").click();
    await guesser.fill("input[name=password]", "Frames#2026");
    await guesser.locator("button[type=submit]").click();
    await expect(guesser.locator("p[role=alert]")).toContainText("Too many sign-in attempts");
  }
});

test("a DPoP proof accepted by one instance is refused as a replay by the other", async () => {
  const proof = await dpopProof(await proofKey(), "POST", `${proxy.url}/connect/token`);
  const backend = `Basic ${Buffer.from("demo-backend:demo-backend-secret").toString("base64")}`;
  const tokenWithProof = (instance: Instance) =>
    fetch(`http://127.0.0.1:${instance.port}/connect/token`, {
      method: "POST",
      headers: { authorization: backend, dpop: proof },
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    });
  const first = await tokenWithProof(instances[0]);
  expect(first.status).toBe(200);
  expect((await first.json()).token_type).toBe("DPoP");
  const replay = await tokenWithProof(instances[1]);
  expect(replay.status).toBe(400);
  expect(await replay.json()).toMatchObject({ error: "invalid_dpop_proof" });
});

test("a key rotation by the CLI is published by both instances within their key cache time (60 s)", async () => {
  test.setTimeout(120_000);
  const old = await kidsAt(instances[0]);
  const output = execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", "keys", "rotate"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, SECRET_KEY },
  }).toString();
  // Every algorithm rotates: RS256, ES256 and PS256 each get a new key.
  const kids = [...output.matchAll(/^(\w+): new active key ([^\s;]+)/gm)].map((match) => match[2]);
  expect(kids).toHaveLength(3);
  const started = Date.now();
  const seen = new Map<number, number>();
  while (seen.size < instances.length && Date.now() - started < 75_000) {
    for (const instance of instances) {
      const published = await kidsAt(instance);
      if (!seen.has(instance.port) && kids.every((kid) => published.includes(kid)))
        seen.set(instance.port, Date.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  expect([...seen.keys()].sort()).toEqual(instances.map((instance) => instance.port).sort());
  for (const delay of seen.values()) expect(delay).toBeLessThanOrEqual(62_000);
  // The old keys stay published: tokens they signed still verify.
  for (const instance of instances) expect(await kidsAt(instance)).toEqual(expect.arrayContaining([...old, ...kids]));
  console.log(
    `new keys ${kids.join(", ")} published after ${[...seen.values()].map((ms) => `${(ms / 1000).toFixed(0)} s`).join(" and ")}`,
  );
});
