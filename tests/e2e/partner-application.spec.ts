/**
 * A software partner's application from registration to use, in Chromium: the vendor's developer
 * registers a server web app on the partner portal and is shown its first secret once, the operator finds it pending
 * with its owner and approves it, the application signs a user in with openid-client; secrets the developer creates
 * then replace one another without downtime. And the RFC 7591 → 7592 round trip over HTTP with an initial access
 * token, with the secret the registration gives and another from the secrets endpoint.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { adminCommand } from "./admin-command";
import * as oidc from "openid-client";
import { redirectToClient } from "./client-redirect";

const APP_ORIGIN = "http://localhost:4100";
const REDIRECT_URI = `${APP_ORIGIN}/callback`;

async function signedIn(browser: Browser, baseURL: string, path: string, email: string, password: string) {
  const page = await (await browser.newContext({ baseURL })).newPage();
  await page.goto(path);
  await page.fill("input[name=username]", email);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
  await page.waitForURL((url) => url.pathname === path);
  return page;
}

/** Creates a secret on the portal page and reads it from where it is shown once. */
async function createSecret(page: Page, clientId: string, description: string): Promise<string> {
  const secrets = page.locator(`[data-secrets-of="${clientId}"]`);
  await secrets.locator("input[name=description]").fill(description);
  await secrets.locator("button[name=action][value=secret-add]").click();
  const shown = page.locator(`[data-secrets-of="${clientId}"] [data-new-secret]`);
  await expect(shown).toHaveText(/^[\w-]{43}$/);
  return (await shown.textContent())!;
}

/** The application signs the optician in (who consents the first time) and redeems the code with its secret. */
async function signInWith(user: Page, baseURL: string, clientId: string, secret: string) {
  const config = await oidc.discovery(new URL(baseURL), clientId, undefined, oidc.ClientSecretBasic(secret), {
    execute: [oidc.allowInsecureRequests],
  });
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: "openid email", state });
  const callback = await redirectToClient(user, APP_ORIGIN, async () => {
    // Once consented, OptiGate sends the browser straight on to the application, which does not run here.
    await user.goto(url.href).catch(() => undefined);
    if (new URL(user.url()).pathname === "/consent") await user.locator("button[name=decision][value=allow]").click();
  });
  return oidc.authorizationCodeGrant(config, callback, { expectedState: state });
}

test("a partner registers a server web app, the operator approves it, and it signs a user in", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const clientId = `praxissoft-shop-${Date.now()}`;
  const developer = await signedIn(browser, baseURL!, "/portal/developer", "developer@demo.test", "Developer#2026");
  await developer.goto("/portal/developer?kind=web#register");
  await developer.fill("form[data-client-kind=web] input[name=client_name]", "Praxissoft Shop");
  await developer.fill("form[data-client-kind=web] input[name=client_id]", clientId);
  await developer.fill("form[data-client-kind=web] textarea[name=redirect_uris]", REDIRECT_URI);
  await developer.locator("form[data-client-kind=web] button[type=submit]").click();
  await expect(developer.getByRole("status").first()).toContainText(
    "Praxissoft Shop is registered and waits for approval",
  );
  await expect(developer.locator(`tr[data-client-id="${clientId}"]`)).toHaveAttribute("data-status", "pending");
  const shownOnce = developer.locator(`[data-secrets-of="${clientId}"] [data-new-secret]`);
  await expect(shownOnce).toHaveText(/^[\w-]{43}$/);
  const registered = (await shownOnce.textContent())!;

  const operator = await signedIn(browser, baseURL!, "/admin/clients", "admin@demo.test", "Admin#2026");
  const row = operator.locator(`tr[data-client-id="${clientId}"]`);
  await expect(row).toContainText("Praxissoft Demo GmbH");
  await expect(row.locator("[data-status]")).toHaveAttribute("data-status", "pending");
  await operator.goto(`/admin/clients/${clientId}`);
  await expect(operator.locator("[data-review-status]")).toContainText(REDIRECT_URI);
  await operator.locator("button[name=action][value=approve]").click();
  await expect(operator.getByRole("status")).toBeVisible();

  await developer.goto(`/portal/developer?registered=${clientId}`);
  await expect(developer.locator(`tr[data-client-id="${clientId}"]`)).toHaveAttribute("data-status", "approved");
  await expect(developer.getByRole("status")).toContainText("Praxissoft Shop is registered and has been approved");
  const first = await createSecret(developer, clientId, "first");
  const user = await (await browser.newContext({ baseURL })).newPage();
  await user.goto("/login");
  await user.fill("input[name=username]", "optician@demo.test");
  await user.locator("button[type=submit]").click();
  await user.fill("input[name=password]", "Optician#2026");
  await user.locator("button[type=submit]").click();
  await user.waitForURL((url) => url.pathname !== "/login");
  expect((await signInWith(user, baseURL!, clientId, registered)).access_token).toBeTruthy();
  const tokens = await signInWith(user, baseURL!, clientId, first);
  expect(tokens.claims()).toMatchObject({ aud: clientId, iss: baseURL });
  expect(tokens.access_token).toBeTruthy();

  // Rotation: a second secret works beside the first; once the first is disabled, only the second does.
  const second = await createSecret(developer, clientId, "second");
  expect((await signInWith(user, baseURL!, clientId, second)).access_token).toBeTruthy();
  const firstRow = developer.locator(`[data-secrets-of="${clientId}"] tr`, { hasText: "first" });
  // Its last use is written beside the token request, not in it.
  await expect(async () => {
    await developer.reload();
    await expect(firstRow.locator("td").nth(3)).not.toContainText("not yet", { timeout: 500 });
  }).toPass();
  await firstRow.locator("button[name=action][value=secret-disable]").click();
  await expect(developer.locator(`[data-secrets-of="${clientId}"] tr`, { hasText: "first" })).toHaveAttribute(
    "data-state",
    "disabled",
  );
  const refused = await signInWith(user, baseURL!, clientId, first).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
  const { response } = refused as oidc.WWWAuthenticateChallengeError;
  expect(response.status).toBe(401);
  expect(await response.json()).toMatchObject({ error: "invalid_client" });
  expect((await signInWith(user, baseURL!, clientId, second)).access_token).toBeTruthy();
});

test("RFC 7591 registration and RFC 7592 management over HTTP, pending until approved", async ({ baseURL }) => {
  const discovery = await (await fetch(`${baseURL}/.well-known/openid-configuration`)).json();
  expect(discovery.registration_endpoint).toBe(`${baseURL}/connect/register`);
  const token = JSON.parse(adminCommand(baseURL!, "partners", "token", "demo-company-vendor")).initial_access_token;
  const json = (body: unknown, bearer: string, method = "POST") => ({
    method,
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const metadata = {
    client_name: "Praxissoft Sync",
    redirect_uris: ["https://sync.praxissoft.example/callback"],
    scope: "openid profile",
  };
  const created = await fetch(discovery.registration_endpoint, json(metadata, token));
  expect(created.status).toBe(201);
  const registered = await created.json();
  expect(registered).toMatchObject({ status: "pending", client_name: "Praxissoft Sync" });
  const manage = registered.registration_access_token as string;
  const uri = registered.registration_client_uri as string;
  expect(uri).toBe(`${baseURL}/connect/register?client_id=${registered.client_id}`);
  expect(registered.client_secret).toMatch(/^[\w-]{43}$/);
  const rotation = await fetch(`${baseURL}/connect/register/secrets?client_id=${registered.client_id}`, {
    method: "POST",
    headers: { authorization: `Bearer ${manage}` },
  });
  expect(rotation.status).toBe(201);
  expect(await rotation.json()).toMatchObject({ client_id: registered.client_id, client_secret: expect.any(String) });

  const read = await fetch(uri, { headers: { authorization: `Bearer ${manage}` } });
  expect(await read.json()).toMatchObject({ client_id: registered.client_id, status: "pending" });
  expect((await fetch(uri, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  const changed = await fetch(uri, json({ ...registered, client_name: "Praxissoft Sync 2" }, manage, "PUT"));
  expect(await changed.json()).toMatchObject({ client_name: "Praxissoft Sync 2", status: "pending" });
  adminCommand(baseURL!, "clients", "approve", registered.client_id);
  expect(await (await fetch(uri, { headers: { authorization: `Bearer ${manage}` } })).json()).toMatchObject({
    status: "approved",
  });
  expect((await fetch(uri, { method: "DELETE", headers: { authorization: `Bearer ${manage}` } })).status).toBe(204);
  expect((await fetch(uri, { headers: { authorization: `Bearer ${manage}` } })).status).toBe(401);
});
