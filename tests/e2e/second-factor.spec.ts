/**
 * A second factor in Chromium: a passkey enrolled on the security page through a WebAuthn virtual
 * authenticator (Chrome DevTools Protocol, resident keys and user verification), then a sign-in with the passkey
 * alone whose ID token says so; an authenticator app set up with codes the test computes from the key the page shows,
 * a sign-in with one of its recovery codes, and a step-up that an application asks for with acr_values, checked by
 * openid-client in the ID token.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import * as oidc from "openid-client";
import { Secret, TOTP } from "otpauth";
import { adminCommand } from "./admin-command";
import { redirectToClient } from "./client-redirect";
import { joinByInvitation } from "./raw-pages";
import { violations } from "./axe";
import { SCREENSHOTS_TAG } from "./screenshots";

const MFA = "urn:optigate:acr:mfa";
const PASSWORD = "leuchtturm brillenetui abendrot";

/** A new optician's user, made by invitation, so that each test has an account of its own. */
async function newPerson(baseURL: string, language = "en"): Promise<string> {
  const email = `second-factor-${Date.now()}-${Math.round(Math.random() * 1e6)}@example.com`;
  const printed = adminCommand(
    baseURL,
    ...["users", "invite", email, "--company", "demo-company-optician", "--language", language],
  );
  await joinByInvitation(baseURL, JSON.parse(printed).invitation_url, {
    givenName: "Petra",
    familyName: "Passkey",
    password: PASSWORD,
  });
  return email;
}

async function signIn(page: Page, path: string, email: string): Promise<void> {
  await page.goto(path);
  await page.fill("input[name=username]", email);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", PASSWORD);
  await page.locator("button[type=submit]").click();
}

/**
 * A browser context with a platform authenticator that holds passkeys and verifies its user; `present(false)` makes
 * it wait for a user who is not there (so that the login page's autofill does not sign in by itself).
 */
async function withAuthenticator(
  browser: Browser,
  baseURL: string,
): Promise<[BrowserContext, Page, (enabled: boolean) => Promise<void>]> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const present = async (enabled: boolean) => {
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled });
  };
  return [context, page, present];
}

async function webClient(baseURL: string) {
  return oidc.discovery(new URL(baseURL), "demo-web", undefined, oidc.ClientSecretBasic("demo-web-secret"), {
    execute: [oidc.allowInsecureRequests],
  });
}

/** An authorization request of demo-web, driven by `interact` in the page, redeemed with openid-client. */
async function authorize(page: Page, baseURL: string, extra: Record<string, string>, interact: () => Promise<void>) {
  const config = await webClient(baseURL);
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: "http://localhost:4000/callback",
    scope: "openid",
    state,
    ...extra,
  });
  const callback = await redirectToClient(page, "http://localhost:4000", async () => {
    await page.goto(url.href).catch(() => undefined);
    await interact();
    if (new URL(page.url()).pathname === "/consent") await page.locator("button[name=decision][value=allow]").click();
  });
  return oidc.authorizationCodeGrant(config, callback, { expectedState: state });
}

test("a passkey enrolled on the security page signs its user in alone, and the ID token says how", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const email = await newPerson(baseURL!);
  const [context, page, present] = await withAuthenticator(browser, baseURL!);
  await signIn(page, "/portal/security", email);
  await page.waitForURL((url) => url.pathname === "/portal/security");
  await page.fill("#passkey-name", "Test laptop");
  await page.fill("#passkey-password", PASSWORD);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your passkey was added." })).toBeVisible();
  await expect(page.locator("tr[data-passkey]")).toContainText("Test laptop");
  await expect(page.locator("[data-recovery-code]")).toHaveCount(10);

  // Signed out, the login page offers the passkey through the browser's autofill: no user name, no password.
  await context.clearCookies();
  const alone = await authorize(page, baseURL!, {}, async () => {
    await page.waitForURL((url) => url.pathname !== "/login" && !url.pathname.startsWith("/connect"));
  });
  expect(alone.claims()).toMatchObject({ acr: MFA, amr: ["hwk", "user", "mfa"] });

  // With the password instead, the second step asks for the passkey: its button completes the sign-in.
  await context.clearCookies();
  await present(false);
  const second = await authorize(page, baseURL!, { prompt: "login" }, async () => {
    await page.waitForURL((url) => url.pathname === "/login");
    await page.fill("input[name=username]", email);
    await page.locator("button[type=submit]").click();
    await page.fill("input[name=password]", PASSWORD);
    await page.locator("button[type=submit]").click();
    await page.waitForURL((url) => url.pathname === "/login/second-factor");
    await present(true);
    await page.getByRole("button", { name: "Use a passkey" }).click();
    // Consent was given before: the browser goes straight on to the application, which does not run here.
    await page.waitForURL((url) => url.pathname !== "/login/second-factor").catch(() => undefined);
  });
  expect(second.claims()).toMatchObject({ acr: MFA, amr: expect.arrayContaining(["pwd", "hwk", "user", "mfa"]) });
  await context.close();
});

test("an authenticator app: set up with the page's key, a recovery code signs in, and step-up asks for a code", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const email = await newPerson(baseURL!);
  // A session from before the app was set up: password only.
  const earlier = await (await browser.newContext({ baseURL })).newPage();
  await signIn(earlier, "/portal/applications", email);
  await earlier.waitForURL((url) => url.pathname === "/portal/applications");

  const page = await (await browser.newContext({ baseURL })).newPage();
  await signIn(page, "/portal/security", email);
  await page.waitForURL((url) => url.pathname === "/portal/security");
  await page.fill("#app-setup-password", PASSWORD);
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const secret = (await page.locator("[data-totp-secret]").getAttribute("data-totp-secret"))!;
  const app = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  await page.fill("input[name=code]", app.generate());
  await page.locator("button[name=action][value=totp-confirm]").click();
  await expect(page.getByRole("status").filter({ hasText: "Your authenticator app is set up." })).toBeVisible();
  const recoveryCodes = await page.locator("[data-recovery-code]").allTextContents();
  expect(recoveryCodes).toHaveLength(10);

  // A new sign-in takes the second step; a recovery code passes it once.
  const other = await (await browser.newContext({ baseURL })).newPage();
  await signIn(other, "/portal/applications", email);
  await other.waitForURL((url) => url.pathname === "/login/second-factor");
  await other.fill("input[name=code]", "000000");
  await other.locator("button[type=submit]").click();
  await expect(other.locator("p[role=alert]")).toContainText("This code is not right");
  await other.fill("input[name=code]", recoveryCodes[0].toLowerCase());
  await other.locator("button[type=submit]").click();
  await other.waitForURL((url) => url.pathname === "/portal/applications");

  // The earlier session has a password alone: an application asking for the mfa level gets the second step.
  const tokens = await authorize(earlier, baseURL!, { acr_values: MFA }, async () => {
    await earlier.waitForURL((url) => url.pathname === "/login/second-factor");
    await earlier.fill("input[name=code]", app.generate({ timestamp: Date.now() + 30_000 }));
    await earlier.locator("button[type=submit]").click();
    await earlier.waitForURL((url) => url.pathname !== "/login/second-factor").catch(() => undefined);
  });
  expect(tokens.claims()).toMatchObject({ acr: MFA, amr: expect.arrayContaining(["pwd", "otp", "mfa"]) });
});

for (const locale of ["en", "de"] as const) {
  test(
    `the security page and the second step meet WCAG 2.2 AA; screenshots in ${locale} at 360 and 1280 px`,
    SCREENSHOTS_TAG,
    async ({ browser, baseURL }) => {
      test.setTimeout(90_000);
      const email = await newPerson(baseURL!, locale);
      const context = await browser.newContext({ baseURL, locale: locale === "de" ? "de-DE" : "en-GB" });
      const page = await context.newPage();
      const check = async (name: string) => {
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        expect(await violations(page), name).toEqual([]);
        for (const width of [360, 1280]) {
          await page.setViewportSize({ width, height: 800 });
          await page.screenshot({ path: `tests/artifacts/screenshots/${name}-${locale}-${width}.png`, fullPage: true });
        }
      };
      await signIn(page, "/portal/security", email);
      await page.waitForURL((url) => url.pathname === "/portal/security");
      await page.fill("#app-setup-password", PASSWORD);
      await page.locator("button[name=action][value=totp-start]").click();
      await expect(page.locator("[data-totp-secret]")).toBeVisible();
      await check("security-app-setup");
      const secret = (await page.locator("[data-totp-secret]").getAttribute("data-totp-secret"))!;
      await page.fill("input[name=code]", new TOTP({ secret: Secret.fromBase32(secret) }).generate());
      await page.locator("button[name=action][value=totp-confirm]").click();
      await expect(page.locator("[data-recovery-code]")).toHaveCount(10);
      await check("security-recovery-codes");
      await context.clearCookies();
      await signIn(page, "/portal/applications", email);
      await page.waitForURL((url) => url.pathname === "/login/second-factor");
      await page.fill("input[name=code]", "000000");
      await page.locator("button[type=submit]").click();
      await expect(page.locator("p[role=alert]")).toBeVisible();
      await check("second-step");
      await context.close();
    },
  );
}
