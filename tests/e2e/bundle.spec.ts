/**
 * The bundle (`npm run bundle`, what the Dockerfile copies into the image) runs on its own: copied to an empty folder
 * outside the repository, started there with nothing but its own files, on SQLite and on PostgreSQL, it answers a
 * smoke flow: discovery, client_credentials, the login page, a sub-catalog download, the guide page, a password
 * sign-in (the native Argon2id binding) and the API reference pages' renderer.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { freePort } from "./raw-http";

const ADMIN_URL = process.env.E2E_POSTGRES_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

let folder = "";
test.beforeAll(() => {
  test.setTimeout(120_000);
  // The standalone output of the build `npm run test:e2e` made; npm run bundle builds it first.
  execFileSync(process.execPath, ["--import", "tsx", "scripts/bundle.ts"], { stdio: "pipe" });
  folder = mkdtempSync(path.join(tmpdir(), "optigate-bundle-"));
  cpSync("bundle", folder, { recursive: true });
});
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function start(
  databaseUrl: string,
): Promise<{ child: ChildProcess; base: string; startedMs: number; log: () => string }> {
  const port = await freePort();
  const started = Date.now();
  // Only what the image sets: no tsx, no repository, no dev dependencies on the module path.
  const child = spawn(process.execPath, ["serve.mjs"], {
    cwd: folder,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      DATABASE_URL: databaseUrl,
      SECRET_KEY: "bundle-test-secret-key-0123456789-abcdef",
      DEMO_DATA: "1",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null || attempt > 240) throw new Error(`the bundle did not start:\n${output}`);
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { child, base, startedMs: Date.now() - started, log: () => output };
}

async function smoke(base: string): Promise<void> {
  const discovery = await (await fetch(`${base}/.well-known/openid-configuration`)).json();
  expect(discovery.token_endpoint).toMatch(/\/connect\/token$/);
  const token = await fetch(`${base}/connect/token`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from("demo-backend:demo-backend-secret").toString("base64")}` },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });
  expect(token.status).toBe(200);
  expect((await token.json()).access_token).toEqual(expect.any(String));
  const login = await fetch(`${base}/login`);
  expect(login.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
  expect(await login.text()).toContain('name="username"');
  const download = await fetch(
    `${base}/getSubCatalog.ashx?companyID=demo-company-lens&catalogResourceKey=DLAG-DE&revision=2`,
  );
  expect(download.status).toBe(200);
  expect(await download.text()).toMatch(/<SubCatalog[\s\S]*<\/SubCatalog>\s*$/);
  // The files the documentation pages read at run time came along in the trace.
  expect(await (await fetch(`${base}/docs/relying-parties`)).text()).toContain(
    'id="backend-service-client-credentials"',
  );
  // A password sign-in: the native Argon2id binding came along (the demo's passwords were hashed with it at start).
  const signIn = await fetch(`${base}/services/login/SilentLogin`, {
    method: "POST",
    body: new URLSearchParams({ username: "optician@demo.test", password: "Optician#2026" }),
  });
  expect([signIn.status, (await signIn.json()).ticket]).toEqual([200, expect.any(String)]);
  const renderer = await fetch(`${base}/docs/api-reference.js`);
  expect([renderer.status, renderer.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
  expect(await renderer.text()).toContain("createApiReference");
}

async function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

test("the bundle serves on SQLite from a folder of its own", async () => {
  test.setTimeout(120_000);
  const server = await start(`file:${path.join(folder, "data", "optigate.db")}`);
  await smoke(server.base);
  console.log(`bundle on SQLite: healthy ${server.startedMs} ms after start`);
  expect(await stop(server.child)).toBe(0);
});

test("the bundle serves on PostgreSQL", async () => {
  test.setTimeout(120_000);
  const name = `optigate_e2e_bundle_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  try {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const server = await start(url.toString());
    await smoke(server.base);
    console.log(`bundle on PostgreSQL: healthy ${server.startedMs} ms after start`);
    expect(await stop(server.child)).toBe(0);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
});

test("a misconfigured bundle exits at once with one line naming the variable", () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, ["serve.mjs"], {
      cwd: folder,
      env: { PATH: process.env.PATH!, NODE_ENV: "production", ...env },
      encoding: "utf8",
      timeout: 20_000,
    });
  const badUrl = run({ DATABASE_URL: "mysql://db/optigate", SECRET_KEY: "bundle-test-secret-key-0123456789-abcdef" });
  expect([badUrl.status, badUrl.stdout + badUrl.stderr]).toEqual([
    1,
    'Configuration error: DATABASE_URL must start with file: (SQLite), postgresql:// or postgres:// (got "mysql://db/optigate")\n',
  ]);
  const noKey = run({});
  expect([noKey.status, noKey.stdout + noKey.stderr]).toEqual([
    1,
    "Configuration error: SECRET_KEY is required in production (at least 32 random characters)\n",
  ]);
});
