/**
 * The Auth.js example app signs in with OptiGate, shows the user and the catalogs of the platform API, renews its
 * access token with the refresh token, and signs out through OptiGate's end-session endpoint back to itself.
 */
import { expect, test, type Page } from "@playwright/test";
import { ACCESS_TOKEN_SECONDS, RENEWAL_DUE_AFTER_SECONDS } from "./renewal";

const OPTICIAN = { username: "optician@demo.test", password: "Optician#2026" };

async function signInAtOptiGate(page: Page) {
  await page.getByRole("button", { name: "Sign in with OptiGate" }).click();
  await page.waitForURL(/\/login\?/);
  await page.fill("input[name=username]", OPTICIAN.username);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", OPTICIAN.password);
  await page.click("button[type=submit]");
}

test("sign in, see the user and their catalogs, renew the access token, sign out through OptiGate", async ({
  page,
  baseURL,
}) => {
  await page.goto("/");
  await signInAtOptiGate(page);

  // First sign-in of this user for the app: OptiGate asks for consent, listing what Auth.js requested.
  await page.waitForURL(/\/consent\?/);
  for (const scope of ["openid", "profile", "email", "offline_access", "platform.catalogs.read"]) {
    await expect(page.locator(`input[type=checkbox][name=scope][value="${scope}"]`)).toHaveCount(1);
  }
  await page.click("button[name=decision][value=allow]");

  await page.waitForURL(`${baseURL}/`);
  await expect(page.getByTestId("user-name")).toHaveText("Olivia Optik");
  await expect(page.getByTestId("catalogs")).toContainText("Demo Lens AG");
  await expect(page.getByTestId("catalogs")).toContainText("catalog.xml");
  const status = page.getByTestId("token-status");
  await expect(status).toHaveAttribute("data-refresh-count", "0");
  const firstExpiry = Number(await status.getAttribute("data-expires-at"));

  // Once the renewal is due, the next page view renews the access token, and the API takes the new one.
  const renewalDueAt = (firstExpiry - ACCESS_TOKEN_SECONDS + RENEWAL_DUE_AFTER_SECONDS) * 1000;
  await page.waitForTimeout(Math.max(0, renewalDueAt - Date.now()) + 1_000);
  await page.reload();
  await expect(status).toHaveAttribute("data-refresh-count", "1");
  expect(Number(await status.getAttribute("data-expires-at"))).toBeGreaterThan(firstExpiry);
  await expect(page.getByTestId("catalogs")).toContainText("catalog.xml");
  // The renewed session went back to the browser whole, in one cookie (Auth.js would split one over 4 KB).
  const cookieNames = (await page.context().cookies(baseURL)).map((cookie) => cookie.name);
  expect(cookieNames).toContain("next-auth.session-token");

  // Another site cannot sign the user out: the example takes the sign-out form from its own origin only.
  const forged = await page.request.post(`${baseURL}/logout`, {
    headers: { origin: "https://elsewhere.example" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  await page.reload();
  await expect(page.getByTestId("user-name")).toHaveText("Olivia Optik");

  await page.getByRole("button", { name: "Sign out" }).click();
  // OptiGate asks to confirm only when it cannot tell the request came from the signed-in user's app.
  await page.waitForURL((url) => url.origin === new URL(baseURL!).origin || url.pathname === "/signout");
  if (new URL(page.url()).pathname === "/signout") await page.click("button[name=decision][value=logout]");
  await page.waitForURL(`${baseURL}/`);
  await expect(page.getByRole("button", { name: "Sign in with OptiGate" })).toBeVisible();

  // The session at OptiGate ended too: signing in again asks for the password (signInAtOptiGate waits for the login
  // page), and, since the app asks for offline access, for consent again.
  await signInAtOptiGate(page);
  await page.waitForURL(/\/consent\?/);
  await page.click("button[name=decision][value=allow]");
  await page.waitForURL(`${baseURL}/`);
  await expect(page.getByTestId("user-name")).toHaveText("Olivia Optik");
});
