/**
 * The quick start's Express snippet runs as the partner portal shows it: a vendor's developer registers a server web
 * application through the portal's form, the operator approves it and a secret is made; the snippet and its `.env`,
 * rendered for that application by the page's own data function, are written to a folder and started with Node.js
 * against OptiGate on plain http (its Node server, with PUBLIC_URL its own address). A person then signs in through
 * the snippet: its login route, OptiGate's authorization endpoint, sign-in and consent, its callback, which redeems
 * the code with openid-client, and its page, which shows the person's claims. Nothing is mocked.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorOfSessionCookie } from "@/lib/rights/actor";
import { partnerQuickStart } from "@/lib/rights/partner-quick-start";
import { SECRET_PLACEHOLDER } from "@/lib/quick-start/quick-start-values";
import { getServiceContext } from "@/lib/service-context";
import { runAdmin } from "../../helpers/admin-cli";
import { freePort } from "../../helpers/browser-run";
import { HttpBrowser, locationOf } from "../../helpers/http-browser";
import { startHttpService, type HttpService } from "../../helpers/http-service";
import { SECRET_KEY, startOAuthService } from "../../helpers/oauth-service";
import { createTestDatabase, testProvider, type TestDatabase } from "../../helpers/test-database";

const ISSUER = `http://127.0.0.1:${freePort()}`;
const APP = `http://localhost:${freePort()}`;
const CLIENT_ID = "praxissoft-express";
const SCOPES = ["openid", "profile", "email"];

let database: TestDatabase;
let optigate: HttpService;
let snippet: ChildProcess | undefined;
const folder = mkdtempSync(path.join(tmpdir(), "optigate-express-snippet-"));

beforeAll(async () => {
  database = await createTestDatabase();
  await startOAuthService(database.target, ISSUER);
  optigate = await startHttpService({ issuer: ISSUER, port: Number(new URL(ISSUER).port) });
});
afterAll(async () => {
  snippet?.kill();
  await optigate?.close();
  await database?.drop();
  rmSync(folder, { recursive: true, force: true });
});

/** Signs a demo user in at OptiGate through its login form; the browser then holds the session. */
async function signIn(browser: HttpBrowser, username: string, password: string, returnUrl = "/") {
  const response = await browser.post("/interaction/login", { returnUrl, username, password });
  expect(response.headers.get("location"), `sign-in of ${username}`).toBe(returnUrl);
}

/** The developer registers the application on the partner portal; the operator approves it and makes a secret. */
async function registeredApplication(): Promise<{ developer: HttpBrowser; secret: string }> {
  const developer = new HttpBrowser(ISSUER, SECRET_KEY);
  await signIn(developer, "developer@demo.test", "Developer#2026");
  const registered = await developer.post("/interaction/developer", {
    action: "register",
    kind: "web",
    client_id: CLIENT_ID,
    client_name: "Praxissoft Express",
    redirect_uris: `${APP}/callback`,
    scope: SCOPES,
  });
  expect(registered.headers.get("location")).toBe(`/portal/developer?registered=${CLIENT_ID}`);
  expect((await runAdmin(database.db, ["clients", "approve", CLIENT_ID])).code).toBe(0);
  const created = await runAdmin(database.db, ["clients", "secret", "add", CLIENT_ID]);
  return { developer, secret: JSON.parse(created.stdout).client_secret };
}

/** Writes the snippet's files as the quick start shows them, the secrets filled in, and starts it. */
async function startSnippet(developer: HttpBrowser, secret: string): Promise<void> {
  const actor = await actorOfSessionCookie(getServiceContext(), developer.session);
  const { guide } = (await partnerQuickStart(actor, CLIENT_ID))!;
  const express = guide.snippets.find(({ id }) => id === "express")!;
  const file = (name: string) => express.files.find((candidate) => candidate.name.startsWith(name))!.text;
  expect(guide.env.text).toContain(`OPTIGATE_CLIENT_SECRET=${SECRET_PLACEHOLDER}`);
  const env = `${guide.env.text}${file(".env")}`
    .replace(SECRET_PLACEHOLDER, secret)
    .replace(/^SESSION_SECRET=.*$/m, "SESSION_SECRET=express-snippet-test-session-secret");
  writeFileSync(path.join(folder, ".env"), env);
  writeFileSync(path.join(folder, "server.mjs"), file("server.mjs"));
  symlinkSync(path.resolve(import.meta.dirname, "../../../node_modules"), path.join(folder, "node_modules"));
  snippet = spawn(process.execPath, ["--env-file=.env", "server.mjs"], {
    cwd: folder,
    env: { PATH: process.env.PATH, NODE_ENV: "test" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Listening on port")) resolve();
    };
    snippet!.stdout!.on("data", seen);
    snippet!.stderr!.on("data", seen);
    snippet!.on("exit", (code) => reject(new Error(`the snippet ended with ${code}: ${output}`)));
  });
}

describe(`the quick start's Express snippet against OptiGate on ${testProvider()}`, () => {
  it("signs a person in through its login route and callback and shows the person's claims", async () => {
    const { developer, secret } = await registeredApplication();
    await startSnippet(developer, secret);

    const person = new HttpBrowser(ISSUER, SECRET_KEY);
    const login = await person.get(`${APP}/login`);
    const authorize = locationOf(login, APP);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${ISSUER}/connect/authorize`);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${APP}/callback`);

    const toLogin = locationOf(await person.get(authorize.href), ISSUER);
    expect(toLogin.pathname).toBe("/login");
    const returnUrl = toLogin.searchParams.get("returnUrl")!;
    await signIn(person, "optician@demo.test", "Optician#2026", returnUrl);
    const toConsent = locationOf(await person.get(returnUrl, ISSUER), ISSUER);
    expect(toConsent.pathname).toBe("/consent");
    const consented = await person.post("/interaction/consent", {
      interaction: toConsent.searchParams.get("interaction")!,
      decision: "allow",
      scope: SCOPES,
    });
    const callback = locationOf(consented, ISSUER);
    expect(`${callback.origin}${callback.pathname}`).toBe(`${APP}/callback`);

    const signedIn = await person.get(callback.href);
    expect(signedIn.status, await signedIn.clone().text()).toBe(302);
    const page = await person.get(locationOf(signedIn, APP).href);
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({
      sub: expect.any(String),
      email: "optician@demo.test",
      given_name: "Olivia",
      family_name: "Optik",
    });
  });
});
