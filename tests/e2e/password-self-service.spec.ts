/**
 * Passwords people manage themselves, in Chromium, on a server of its own that mails through a real SMTP server
 * started here: a forgotten password is reset from the mail and the person lands back at the application that asked
 * (in German, as the application asked); a password change ends the session of a second browser; a weak password
 * is refused with its reason in German, after the strength meter said so in the browser without a request.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import * as oidc from "openid-client";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../helpers/smtp-sink";
import { redirectToClient } from "./client-redirect";
import { startOwnServer, type OwnServer } from "./raw-http";

let smtp: SmtpSink;
let server: OwnServer;
let base: string;

test.beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startOwnServer({ SMTP_URL: smtp.url, MAIL_FROM: "OptiGate Demo <no-reply@optigate.test>" });
  base = `http://localhost:${server.port}`;
});
test.afterAll(async ({ browser }) => {
  // Open pages keep their connections busy (Next.js prefetches links), which a graceful shutdown would wait for.
  for (const context of browser.contexts()) await context.close();
  await server?.stop();
  await smtp?.close();
});

async function mailTo(address: string, subject: string): Promise<ReceivedMail> {
  for (let waited = 0; waited < 20_000; waited += 100) {
    const mail = smtp.received.find((received) => received.to === address && received.subject === subject);
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `no mail "${subject}" to ${address}; received: ${smtp.received.map((mail) => mail.subject).join(", ")}`,
  );
}

async function signedIn(browser: Browser, username: string, password: string, locale = "en-US"): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: base, locale })).newPage();
  await page.goto("/portal/profile");
  await page.fill("input[name=username]", username);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
  await page.waitForURL((url) => url.pathname === "/portal/profile");
  return page;
}

test("a forgotten password is reset from the mail, and the person is back at the application", async ({ browser }) => {
  test.setTimeout(90_000);
  const web = await oidc.discovery(new URL(base), "demo-web", undefined, oidc.ClientSecretBasic("demo-web-secret"), {
    execute: [oidc.allowInsecureRequests],
  });
  const state = oidc.randomState();
  const authorize = oidc.buildAuthorizationUrl(web, {
    redirect_uri: "http://localhost:4000/callback",
    scope: "openid email",
    state,
    ui_locales: "de",
  });
  const page = await (await browser.newContext({ baseURL: base })).newPage();
  await page.goto(authorize.href);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await page.locator('a[href^="/password/forgot"]').click();
  await expect(page.locator("h1")).toHaveText("Passwort vergessen?");
  await page.fill("input[name=email]", "supplier@demo.test");
  await page.locator("button[type=submit]").click();
  await expect(page.getByRole("status")).toContainText("Wenn die Adresse zu einem aktiven OptiGate-Konto gehört");

  const mail = await mailTo("supplier@demo.test", "Neues OptiGate-Passwort festlegen");
  const link = /http:\/\/localhost:\d+\/password\/reset\?\S+/.exec(mail.text)![0];
  const token = new URL(link).searchParams.get("token")!;
  await page.goto(link);
  // The token left the address bar at once (and with it the history and any Referer).
  expect(page.url()).toBe(`${base}/password/reset?ui_locales=de`);
  await expect(page.locator("h1")).toHaveText("Neues Passwort wählen");
  await page.fill("input[name=password]", "fassung gleitsicht sonnenbrille");
  await expect(page.locator("[data-password-strength]")).toHaveAttribute("data-password-strength", /[34]/);
  const callback = await redirectToClient(page, "http://localhost:4000", async () => {
    await page.locator("button[type=submit]").click();
    await page.waitForURL((url) => url.pathname === "/consent" || url.origin === "http://localhost:4000");
    if (new URL(page.url()).pathname === "/consent") await page.locator("button[name=decision][value=allow]").click();
  });
  const tokens = await oidc.authorizationCodeGrant(web, callback, { expectedState: state });
  expect(tokens.claims()?.sub).toBeTruthy();
  const notice = await mailTo("supplier@demo.test", "Ihr OptiGate-Passwort wurde zurückgesetzt");
  expect(notice.text).toContain("/password/forgot?ui_locales=de");
  expect(server.log()).not.toContain(token);

  // The link again, in another browser: the page says it was used and offers a new mail.
  const again = await (await browser.newContext({ baseURL: base })).newPage();
  await again.goto(link);
  await expect(again.locator("h1")).toHaveText("Dieser Link kann nicht verwendet werden");
  await expect(again.locator("p[role=alert]")).toContainText("Dieser Link wurde bereits verwendet");
  await expect(again.locator('form[action="/interaction/password/forgot"] input[name=email]')).toBeVisible();
  await again.goto(`/email/confirm?token=${token.slice(0, 30)}&ui_locales=en`);
  expect(again.url()).toBe(`${base}/email/confirm?ui_locales=en`);
  await expect(again.locator("h1")).toHaveText("This link cannot be used");
  await expect(again.locator("p[role=alert]")).toContainText("it was replaced by a newer one, or copied incompletely");
});

test("changing the password ends the session of a second browser", async ({ browser }) => {
  const here = await signedIn(browser, "frames@demo.test", "Frames#2026");
  const there = await signedIn(browser, "frames@demo.test", "Frames#2026");
  await here.fill("input[name=current_password]", "Frames#2026");
  await here.fill("input[name=new_password]", "brillenetui wanderkarte leuchtturm");
  await here.locator("button[name=action][value=change-password]").click();
  await expect(here.getByRole("status")).toContainText("Your password was changed");
  await there.goto("/portal/profile");
  await expect(there).toHaveURL(/\/login\?/);
  await here.goto("/portal/security");
  await expect(here.locator("tr[data-session]")).toHaveCount(1);
  await mailTo("frames@demo.test", "Your OptiGate password was changed");
});

test("a weak password is refused with its reason in German, and the meter said so without a request", async ({
  browser,
}) => {
  const page = await signedIn(browser, "optician@demo.test", "Optician#2026", "de-DE");
  await expect(page.locator("h1")).toHaveText("Ihr Profil");
  const requests: string[] = [];
  page.on("request", (request) => requests.push(`${request.method()} ${request.url()} ${request.postData() ?? ""}`));
  await page.fill("input[name=current_password]", "Optician#2026");
  await page.locator("input[name=new_password]").pressSequentially("passwort12345");
  await expect(page.locator("[data-password-strength]")).toContainText("Schwach");
  expect(requests.filter((request) => request.includes("passwort12345"))).toEqual([]);
  await page.locator("button[name=action][value=change-password]").click();
  await expect(page.locator("p[role=alert]")).toContainText("Dieses Passwort ist zu leicht zu erraten");
  await expect(page.locator("input[name=new_password]")).toHaveAttribute("aria-invalid", "true");
});
