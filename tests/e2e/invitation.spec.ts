/**
 * Onboarding by invitation, end to end on a server of its own that sends mail to a real SMTP server started here:
 * the optician's administrator invites a colleague in German, the colleague opens the link from the mail received,
 * sets a name and password and arrives signed in; when the administrator deactivates them, their refresh token and
 * their catalog ticket stop working at once.
 */
import { expect, test, type Page } from "@playwright/test";
import * as oidc from "openid-client";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../helpers/smtp-sink";
import { redirectToClient } from "./client-redirect";
import { startOwnServer, type OwnServer } from "./raw-http";

let smtp: SmtpSink;
let server: OwnServer;

test.beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startOwnServer({ SMTP_URL: smtp.url, MAIL_FROM: "OptiGate Demo <no-reply@optigate.test>" });
});
test.afterAll(async ({ browser }) => {
  // Open pages keep their connections busy (Next.js prefetches links), which a graceful shutdown would wait for.
  for (const context of browser.contexts()) await context.close();
  await server?.stop();
  await smtp?.close();
});

async function mailTo(address: string): Promise<ReceivedMail> {
  for (let waited = 0; waited < 20_000; waited += 100) {
    const mail = smtp.received.find((received) => received.to === address);
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${address}; received: ${smtp.received.map((mail) => mail.to).join(", ")}`);
}

async function signIn(page: Page, path: string, username: string, password: string) {
  await page.goto(path);
  await page.fill("input[name=username]", username);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
  await page.waitForURL((url) => url.pathname === path);
}

/** demo-web's refresh token for the browser's signed-in user, through the code flow with consent. */
async function refreshTokenOf(page: Page, base: string): Promise<{ web: oidc.Configuration; refreshToken: string }> {
  const web = await oidc.discovery(new URL(base), "demo-web", undefined, oidc.ClientSecretBasic("demo-web-secret"), {
    execute: [oidc.allowInsecureRequests],
  });
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(web, {
    redirect_uri: "http://localhost:4000/callback",
    scope: "openid offline_access",
    state,
  });
  await page.goto(url.href);
  const callback = await redirectToClient(page, "http://localhost:4000", () =>
    page.locator("button[name=decision][value=allow]").click(),
  );
  const tokens = await oidc.authorizationCodeGrant(web, callback, { expectedState: state });
  return { web, refreshToken: tokens.refresh_token! };
}

test("an administrator invites a colleague, who joins from the mail; deactivating them stops their tokens", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const base = `http://localhost:${server.port}`;
  const admin = await (await browser.newContext({ baseURL: base })).newPage();
  await signIn(admin, "/portal/company", "optician@demo.test", "Optician#2026");
  await expect(admin.locator("h1")).toHaveText("People of Augenoptik Demo GmbH");
  await expect(admin.locator('tr[data-email="colleague@demo.test"]')).toContainText("Invited");

  await admin.fill("#invite-email", "neu@example.de");
  await admin.selectOption("#invite-language", "de");
  await admin.locator("#people-form button[type=submit]").click();
  // The page's other live regions (the copy buttons' of the company sign-in section) stay empty until used.
  const announced = admin.getByRole("status").filter({ hasText: /\S/ });
  await expect(announced).toHaveText("Invitation sent to neu@example.de.");
  await expect(admin.locator('tr[data-email="neu@example.de"]')).toContainText("Invited");

  const mail = await mailTo("neu@example.de");
  expect(mail.subject).toBe("Ihre Einladung zu Augenoptik Demo GmbH bei OptiGate");
  expect(mail.text).toContain("Olivia Optik hat Sie eingeladen");
  const link = /http:\/\/localhost:\d+\/invitation\?\S+/.exec(mail.text)![0];

  const colleague = await (await browser.newContext({ baseURL: base })).newPage();
  await colleague.goto(link);
  await expect(colleague.locator("html")).toHaveAttribute("lang", "de");
  await expect(colleague.locator("h1")).toHaveText("Augenoptik Demo GmbH beitreten");
  // The meter reads the names typed above the password, as the server does: a password of them is weak.
  await colleague.fill("input[name=given_name]", "Xandra");
  await colleague.fill("input[name=family_name]", "Quirrelsberg");
  await colleague.locator("input[name=password]").pressSequentially("Quirrelsberg Xandra 1987");
  await expect(colleague.locator("[data-password-strength]")).toHaveAttribute("data-password-strength", /[012]/);
  await colleague.fill("input[name=given_name]", "Nele");
  await colleague.fill("input[name=family_name]", "Neu");
  await colleague.fill("input[name=password]", "brille fassung glas rahmen");
  await expect(colleague.locator("button[type=submit]")).toHaveCount(1);
  await colleague.locator("button[type=submit]").click();
  await colleague.waitForURL((url) => url.pathname === "/portal/applications");
  await expect(colleague.locator("main")).toContainText("Nele");

  const { web, refreshToken } = await refreshTokenOf(colleague, base);
  const login = await fetch(`${base}/services/login/SilentLogin`, {
    method: "POST",
    body: new URLSearchParams({ username: "neu@example.de", password: "brille fassung glas rahmen" }),
  });
  const { ticket } = await login.json();
  expect((await fetch(`${base}/getCatalogInfos.ashx?ticket=${ticket}`)).status).toBe(200);
  await oidc.refreshTokenGrant(web, refreshToken);

  await admin.reload();
  const row = admin.locator('tr[data-email="neu@example.de"]');
  await expect(row).toContainText("Active");
  await row.getByText("Deactivate…").click();
  await row.getByRole("button", { name: "Deactivate neu@example.de and sign them out everywhere" }).click();
  await expect(announced).toHaveText("neu@example.de is deactivated and signed out everywhere.");

  expect((await fetch(`${base}/getCatalogInfos.ashx?ticket=${ticket}`)).status).toBe(403);
  await expect(oidc.refreshTokenGrant(web, refreshToken)).rejects.toMatchObject({ error: "invalid_grant" });
  await colleague.goto("/portal/applications");
  await expect(colleague).toHaveURL(/\/login\?/);

  // The link's token went through the server's log only as a request it answered, never written out.
  const token = new URL(link).searchParams.get("token")!;
  expect(server.log()).toContain('"path":"/invitation"');
  expect(server.log()).not.toContain(token);
});
