/**
 * A new partner developer's first minutes, in Chromium: a software vendor new to OptiGate invites its developer, who
 * registers a server web app on the partner portal, opens its quick start (issuer, discovery URL, `.env`), tries the
 * sign-in through the application's sandbox as themselves and sees the decoded tokens; a person of another company is
 * refused by the sandbox on OptiGate's own page. The time from the registration to the first signed-in page is written to the report.
 */
import { expect, test, type Browser } from "@playwright/test";
import { newVendorDeveloper } from "./vendor-developer";

const APP_ORIGIN = "http://localhost:4200";
const REDIRECT_URI = `${APP_ORIGIN}/callback`;

async function signedIn(browser: Browser, baseURL: string, target: string, email: string, password: string) {
  const page = await (await browser.newContext({ baseURL })).newPage();
  await page.goto(target);
  await page.fill("input[name=username]", email);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
  await page.waitForURL((url) => url.pathname === target);
  return page;
}

test("a new partner developer registers, reads the quick start and signs in through the sandbox", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { credentials } = await newVendorDeveloper(baseURL!, {
    name: "Linsenwerk Software",
    developer: { givenName: "Lina", familyName: "Linse" },
  });
  const [email, password] = credentials;
  const developer = await signedIn(browser, baseURL!, "/portal/developer", email, password);
  const clientId = `linsenwerk-shop-${Date.now()}`;

  await developer.goto("/portal/developer?kind=web#register");
  await developer.fill("form[data-client-kind=web] input[name=client_name]", "Linsenwerk Shop");
  await developer.fill("form[data-client-kind=web] input[name=client_id]", clientId);
  await developer.fill("form[data-client-kind=web] textarea[name=redirect_uris]", REDIRECT_URI);
  const registeredAt = Date.now();
  await developer.locator("form[data-client-kind=web] button[type=submit]").click();
  await expect(developer.locator(`tr[data-client-id="${clientId}"]`)).toHaveAttribute("data-status", "pending");

  // The quick start: what the application needs to know, as the developer copies it.
  await developer.getByRole("link", { name: "Linsenwerk Shop", exact: true }).click();
  await developer.waitForURL(`**/portal/developer/${clientId}`);
  await expect(developer.locator("main")).toContainText(`${baseURL}/.well-known/openid-configuration`);
  await expect(developer.locator("main")).toContainText(`OPTIGATE_CLIENT_ID=${clientId}`);
  await expect(developer.locator("main")).toContainText(`OPTIGATE_ISSUER=${baseURL}`);
  await expect(developer.locator("[data-snippet]").first()).toBeVisible();

  // Try sign-in: the sandbox lets the vendor's own developer in, marked so on the consent page and in the ID token.
  await developer.getByRole("button", { name: "Try sign-in" }).click();
  await developer.waitForURL(/\/consent\?/);
  await expect(developer.locator("[data-sandbox=true]")).toBeVisible();
  await developer.locator("button[name=decision][value=allow]").click();
  await developer.waitForURL(`**/portal/developer/${clientId}#try`);
  await expect(developer.locator("[data-trial-result=ok]")).toBeVisible();
  const signedInAfter = Date.now() - registeredAt;
  test.info().annotations.push({ type: "registration to first signed-in page (ms)", description: `${signedInAfter}` });
  console.log(`registration to first signed-in page: ${signedInAfter} ms`);
  const idToken = developer.locator("#trial-id-token").locator("..");
  await expect(idToken.locator("tr[data-claim=sandbox]")).toContainText("true");
  await expect(idToken.locator("tr[data-claim=aud]")).toContainText(clientId);
  await expect(developer.locator("[data-userinfo]")).toContainText(email);

  // Someone of another company cannot sign in to the pending application, nor is sent to its unreviewed address.
  const optician = await signedIn(browser, baseURL!, "/portal/applications", "optician@demo.test", "Optician#2026");
  const authorize = new URL("/connect/authorize", baseURL);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "openid profile",
    state: "outsider",
  }).toString();
  const refused = await optician.goto(authorize.href);
  expect(refused?.status()).toBe(400);
  await expect(optician.locator("body")).toContainText("waits for approval");
  expect(new URL(optician.url()).origin).toBe(baseURL);
});
