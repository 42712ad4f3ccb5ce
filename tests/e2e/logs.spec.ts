/**
 * The log of a full flow on a server of this file's own: one JSON line per request (time, request id, method, path
 * without its query, status, duration, client, the user by id, the caller's address), and not one of the secrets the
 * flow used: passwords, client secrets, the code, the tokens, the ticket; nor the user's address.
 */
import { expect, test } from "@playwright/test";
import * as oidc from "openid-client";
import { redirectToClient } from "./client-redirect";
import { startOwnServer, type OwnServer } from "./raw-http";

let server: OwnServer;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer();
});
test.afterAll(async () => server?.stop());

test("request lines are JSON and hold no password, secret, code, token or ticket", async ({ page }) => {
  const base = `http://localhost:${server.port}`;
  const secrets: string[] = ["Optician#2026", "demo-web-secret", "demo-backend-secret"];
  const web = await oidc.discovery(new URL(base), "demo-web", undefined, oidc.ClientSecretBasic("demo-web-secret"), {
    execute: [oidc.allowInsecureRequests],
  });
  const state = oidc.randomState();
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
  const callback = await redirectToClient(page, "http://localhost:4000", () =>
    page.locator("button[name=decision][value=allow]").click(),
  );
  secrets.push(callback.searchParams.get("code")!);
  const tokens = await oidc.authorizationCodeGrant(web, callback, { expectedState: state, idTokenExpected: true });
  const refreshed = await oidc.refreshTokenGrant(web, tokens.refresh_token!);
  secrets.push(tokens.access_token, tokens.refresh_token!, tokens.id_token!, refreshed.access_token);

  const backend = await fetch(`${base}/connect/token`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from("demo-backend:demo-backend-secret").toString("base64")}` },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });
  const { access_token: backendToken } = await backend.json();
  secrets.push(backendToken);
  expect(
    (await fetch(`${base}/v2/catalogs?limit=1`, { headers: { authorization: `Bearer ${backendToken}` } })).status,
  ).toBe(200);
  const login = await fetch(`${base}/services/login/SilentLogin`, {
    method: "POST",
    body: new URLSearchParams({ username: "optician@demo.test", password: "Optician#2026" }),
  });
  const { ticket } = await login.json();
  secrets.push(ticket);
  expect(
    (
      await fetch(
        `${base}/getSubCatalog.ashx?ticket=${ticket}&companyID=demo-company-lens&catalogResourceKey=DLAG-DE&revision=2`,
      )
    ).status,
  ).toBe(200);
  expect(
    (
      await fetch(`${base}/connect/token`, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: "demo-backend",
          client_secret: "a-wrong-secret-guess",
        }),
      })
    ).status,
  ).toBe(401);
  secrets.push("a-wrong-secret-guess");

  await new Promise((resolve) => setTimeout(resolve, 500)); // the last lines reach stdout
  const log = server.log();
  for (const secret of secrets) expect(log.includes(secret), `the log holds ${secret.slice(0, 12)}…`).toBe(false);
  // The JWT parts one by one, too: a log must not hold a token's signature either.
  for (const jwt of [tokens.access_token, tokens.id_token!])
    for (const part of jwt.split(".")) expect(log.includes(part)).toBe(false);

  const lines = log
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const requests = lines.filter((line) => line.msg === "request");
  const tokenLines = requests.filter((line) => line.path === "/connect/token");
  expect(tokenLines.length).toBeGreaterThanOrEqual(4);
  for (const line of requests) {
    expect(line).toMatchObject({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      method: expect.any(String),
      path: expect.stringMatching(/^\//),
      status: expect.any(Number),
      durationMs: expect.any(Number),
    });
    expect(String(line.path)).not.toContain("?");
  }
  expect(tokenLines.filter((line) => line.status === 200).map((line) => line.clientId)).toEqual(
    expect.arrayContaining(["demo-web", "demo-backend"]),
  );
  expect(requests.find((line) => String(line.path).startsWith("/v2/"))).toMatchObject({
    clientId: "demo-backend",
    requestId: expect.any(String),
  });
  expect(requests.some((line) => line.path === "/login" && line.status === 200)).toBe(true);
  // The route handlers' lines: the caller's address as the Node server took it from the socket, and the user of the
  // session or access token by id.
  const handled = requests.filter((line) => line.requestId !== undefined);
  for (const line of handled) expect(line.clientAddress).toMatch(/^[0-9a-f:.]+$/i);
  const authorized = handled.find((line) => line.path === "/connect/authorize" && line.userId !== undefined);
  expect(authorized).toMatchObject({ clientId: "demo-web", userId: expect.any(String) });
  expect(requests.find((line) => String(line.path).startsWith("/v2/"))).not.toHaveProperty("userId");
  for (const line of requests) expect(JSON.stringify(line)).not.toContain("optician@demo.test");
});
