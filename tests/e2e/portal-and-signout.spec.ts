/**
 * The pages people use after signing in: the application access portal (revoke, then the application's refresh fails
 * and its next sign-in asks again) and sign-out (with and without id_token_hint, and a bad post-logout URI).
 * Also writes screenshots of login, consent, portal and sign-out in English and German at 360 and 1280 px to
 * tests/artifacts/screenshots.
 */
import { expect, test, type Page } from "@playwright/test";
import * as oidc from "openid-client";
import { redirectToClient } from "./client-redirect";
import { SCREENSHOTS_TAG } from "./screenshots";

const insecure = { execute: [oidc.allowInsecureRequests] };

async function webClient(baseURL: string) {
  return oidc.discovery(new URL(baseURL), "demo-web", undefined, oidc.ClientSecretBasic("demo-web-secret"), insecure);
}

/** Signs in as the optician and allows demo-web; returns its tokens. */
async function signInToDemoWeb(page: Page, web: oidc.Configuration, scope: string) {
  const state = oidc.randomState();
  await page.goto(
    oidc.buildAuthorizationUrl(web, { redirect_uri: "http://localhost:4000/callback", scope, state, prompt: "consent" })
      .href,
  );
  await page.fill("input[name=username]", "optician@demo.test");
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", "Optician#2026");
  await page.locator("button[type=submit]").click();
  await expect(page).toHaveURL(/\/consent\?/);
  const callback = await redirectToClient(page, "http://localhost:4000", () =>
    page.locator("button[name=decision][value=allow]").click(),
  );
  return oidc.authorizationCodeGrant(web, callback, { expectedState: state, idTokenExpected: true });
}

test("revoking an application in the portal ends its refresh tokens and brings back the consent prompt", async ({
  page,
  baseURL,
}) => {
  const web = await webClient(baseURL!);
  const tokens = await signInToDemoWeb(page, web, "openid profile offline_access");
  await page.goto("/portal/applications");
  const entry = page.locator("[data-client-id=demo-web]");
  await expect(entry).toContainText("Demo web shop");
  await expect(entry).toContainText("Stay connected");
  await entry.locator("button[name=revoke]").click();
  await entry.locator("button[name=confirm]").click();
  await expect(page.getByRole("status")).toContainText("The access of Demo web shop was revoked.");
  await expect(page.locator("[data-client-id=demo-web]")).toHaveCount(0);

  await expect(oidc.refreshTokenGrant(web, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  await page.goto(
    oidc.buildAuthorizationUrl(web, {
      redirect_uri: "http://localhost:4000/callback",
      scope: "openid profile",
      state: "again",
    }).href,
  );
  await expect(page).toHaveURL(/\/consent\?/);
});

test("sign-out with a hint redirects at once; afterwards prompt=none needs a login", async ({ page, baseURL }) => {
  const web = await webClient(baseURL!);
  const tokens = await signInToDemoWeb(page, web, "openid");
  const url = oidc.buildEndSessionUrl(web, {
    id_token_hint: tokens.id_token!,
    post_logout_redirect_uri: "http://localhost:4000/",
    state: "bye",
  });
  const after = await redirectToClient(page, "http://localhost:4000", () => page.goto(url.href).catch(() => undefined));
  expect(after.href).toBe("http://localhost:4000/?state=bye");
  const silent = await redirectToClient(page, "http://localhost:4000", () =>
    page
      .goto(
        oidc.buildAuthorizationUrl(web, {
          redirect_uri: "http://localhost:4000/callback",
          scope: "openid",
          state: "s",
          prompt: "none",
        }).href,
      )
      .catch(() => undefined),
  );
  expect(silent.searchParams.get("error")).toBe("login_required");
});

test("sign-out without a hint asks first; an unregistered post-logout URI is never followed", async ({
  page,
  baseURL,
}) => {
  const web = await webClient(baseURL!);
  await signInToDemoWeb(page, web, "openid");
  await page.goto(
    `/connect/endsession?${new URLSearchParams({ client_id: "demo-web", post_logout_redirect_uri: "https://evil.example/" })}`,
  );
  await expect(page).toHaveURL(/\/signout\?/);
  await page.locator("button[name=decision][value=logout]").click();
  await expect(page).toHaveURL(/\/signout\?done=1/);
  await expect(page.getByRole("status")).toHaveText("You are signed out of OptiGate.");
});

for (const locale of ["en", "de"] as const) {
  test(`screenshots of the pages in ${locale} at 360 and 1280 px`, SCREENSHOTS_TAG, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ locale: locale === "de" ? "de-DE" : "en-GB" });
    const page = await context.newPage();
    const shoot = async (name: string) => {
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        await page.screenshot({ path: `tests/artifacts/screenshots/${name}-${locale}-${width}.png`, fullPage: true });
      }
    };
    const web = await webClient(baseURL!);
    await page.goto(
      oidc.buildAuthorizationUrl(web, {
        redirect_uri: "http://localhost:4000/callback",
        scope: "openid profile email offline_access",
        state: "s",
      }).href,
    );
    await shoot("login");
    await page.fill("input[name=username]", "optician@demo.test");
    await page.locator("button[type=submit]").click();
    await page.fill("input[name=password]", "Optician#2026");
    await page.locator("button[type=submit]").click();
    await expect(page).toHaveURL(/\/consent\?/);
    await shoot("consent");
    await redirectToClient(page, "http://localhost:4000", () =>
      page.locator("button[name=decision][value=allow]").click(),
    );
    await page.goto("/portal/applications");
    await shoot("portal");
    await page.goto("/portal/company");
    await shoot("company");
    await page.goto("/signout");
    await shoot("signout");
    await context.close();
  });
}
