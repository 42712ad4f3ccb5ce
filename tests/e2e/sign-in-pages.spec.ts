/**
 * The sign-in pages stay in the sign-in: no portal menu during login, consent and sign-out, and "not you?" on the
 * consent page leads to a fresh login for the same authorization request. The home page offers sign-in; on a phone
 * the menu sits behind a menu button. Also writes screenshots of the home page and the open phone menu in English and
 * German to tests/artifacts/screenshots.
 */
import { expect, test, type Page } from "@playwright/test";
import { redirectToClient } from "./client-redirect";
import { SCREENSHOTS_TAG } from "./screenshots";

const authorize = (extra: Record<string, string> = {}) =>
  `/connect/authorize?${new URLSearchParams({ client_id: "demo-web", redirect_uri: "http://localhost:4000/callback", response_type: "code", scope: "openid profile", state: "s", prompt: "consent", ...extra })}`;

async function fillLogin(page: Page, username: string, password: string) {
  await page.fill("input[name=username]", username);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
}

const mainMenu = (page: Page) => page.getByRole("navigation", { name: /Main navigation|Hauptnavigation/ });
const menuButton = (page: Page) => page.getByRole("button", { name: /^(Menu|Menü)$/ });

test.use({ locale: "en-GB" });

test("the login page asks for the email address first, then for the password with the address filled in", async ({
  page,
}) => {
  await page.goto("/login");
  await expect(page.locator("input[name=password]")).toHaveCount(0);
  await expect(page.locator("button[type=submit]")).toHaveCount(1);
  await page.fill("input[name=username]", "optician@demo.test");
  await page.locator("button[type=submit]").click();
  await expect(page).toHaveURL(/[?&]step=password/);
  await expect(page.locator("input[name=username]")).toHaveValue("optician@demo.test");
  await expect(page.locator("input[name=password]")).toBeFocused();
  await page.fill("input[name=password]", "Optician#2026");
  await page.locator("button[type=submit]").click();
  await expect(mainMenu(page)).toBeVisible();
});

test("a company domain goes to its own provider, from the first step and from idp_hint", async ({ page }) => {
  // The demo's Optik Nord signs in at `npm run demo:idp` on localhost:3100, which no browser test starts
  // (company-sso.spec.ts starts its own provider, then points Optik Nord back there): both ways end on the login page
  // saying it cannot be reached, which shows that they were routed there.
  const unreachable = "cannot be reached";
  await page.goto("/login");
  await page.fill("input[name=username]", "anna@optik-nord.test");
  await page.locator("button[type=submit]").click();
  await expect(page.locator("main [role=alert]")).toContainText(unreachable);
  await expect(page.locator("input[name=password]")).toHaveCount(0);
  await page.goto(authorize({ idp_hint: "optik-nord.test" }));
  await expect(page).toHaveURL(/[?&]hinted=1/);
  await expect(page.locator("main [role=alert]")).toContainText(unreachable);
});

test("login, consent and sign-out show the brand and the language switch, never the portal menu", async ({ page }) => {
  await page.goto("/portal/applications");
  await fillLogin(page, "optician@demo.test", "Optician#2026");
  await expect(mainMenu(page)).toBeVisible();
  await expect(mainMenu(page).getByRole("link", { name: "Applications" })).toHaveAttribute("aria-current", "page");

  // Signed in, and still no menu on a login the application insists on.
  await page.goto(authorize({ prompt: "login consent" }));
  await expect(page).toHaveURL(/\/login\?/);
  await expect(mainMenu(page)).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Language" })).toBeVisible();
  await expect(page.getByRole("link", { name: "OptiGate" })).toBeVisible();
  await fillLogin(page, "optician@demo.test", "Optician#2026");
  await expect(page).toHaveURL(/\/consent\?/);
  await expect(mainMenu(page)).toHaveCount(0);
  await expect(menuButton(page)).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Language" })).toBeVisible();
  await expect(page.getByText(/stay connected/i)).toHaveCount(0); // offline access was not asked for
  await expect(page.getByRole("link", { name: /Manage application access/ })).toHaveAttribute(
    "href",
    "/portal/applications",
  );

  await page.goto("/signout");
  await expect(mainMenu(page)).toHaveCount(0);
  await expect(page.locator("button[name=decision][value=logout]")).toBeVisible();
});

test("the consent page says “stay connected” once", async ({ page }) => {
  await page.goto(authorize({ scope: "openid profile offline_access" }));
  await fillLogin(page, "optician@demo.test", "Optician#2026");
  await expect(page).toHaveURL(/\/consent\?/);
  await expect(page.getByText(/stay connected/i)).toHaveCount(1);
});

test("“not you?” ends the session and a fresh login comes back to consent for the same application", async ({
  page,
}) => {
  await page.goto(authorize({ login_hint: "optician@demo.test" }));
  await fillLogin(page, "optician@demo.test", "Optician#2026");
  await expect(page).toHaveURL(/\/consent\?/);
  await expect(page.getByText("Signed in as")).toContainText("optician@demo.test");

  await page.getByRole("button", { name: "Sign in as someone else" }).click();
  await expect(page).toHaveURL(/\/login\?returnUrl=/);
  await expect(page.getByText("to continue to Demo web shop")).toBeVisible();
  await expect(page.locator("input[name=username]")).toHaveValue(""); // the hint named the user who left
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain("optigate_session");

  await fillLogin(page, "frames@demo.test", "Frames#2026");
  await expect(page).toHaveURL(/\/consent\?/);
  await expect(page.getByText("Signed in as")).toContainText("frames@demo.test");
  await expect(page.getByText("Demo web shop asks for permission to:")).toBeVisible();
  const callback = await redirectToClient(page, "http://localhost:4000", () =>
    page.locator("button[name=decision][value=allow]").click(),
  );
  expect(callback.searchParams.get("code")).toBeTruthy();
  expect(callback.searchParams.get("state")).toBe("s");
});

test("the home page offers sign-in, and the portal once signed in", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fportal$/);
  await fillLogin(page, "optician@demo.test", "Optician#2026");
  await expect(page).toHaveURL(/\/portal$/);
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Continue to the portal" })).toHaveAttribute("href", "/portal");
});

test("on a phone the menu opens and closes from the keyboard and marks the current page", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/portal/profile");
  await fillLogin(page, "optician@demo.test", "Optician#2026");
  await expect(page).toHaveURL(/\/portal\/profile$/);

  const button = menuButton(page);
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(mainMenu(page)).toBeHidden();
  const header = await page.locator("header").boundingBox();
  expect(header!.height).toBeLessThan(80); // one row, not three or four

  await button.focus();
  await page.keyboard.press("Enter");
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await expect(mainMenu(page)).toBeVisible();
  const controlled = await button.getAttribute("aria-controls");
  await expect(mainMenu(page)).toHaveAttribute("id", controlled!);
  const current = mainMenu(page).getByRole("link", { name: "Profile" });
  await expect(current).toHaveAttribute("aria-current", "page");
  await expect(mainMenu(page).locator("[aria-current]")).toHaveCount(1);

  await page.keyboard.press("Tab");
  await expect(mainMenu(page).getByRole("link").first()).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(button).toBeFocused();
  await expect(mainMenu(page)).toBeHidden();

  await page.keyboard.press("Space");
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Space");
  await expect(button).toHaveAttribute("aria-expanded", "false");
});

for (const locale of ["en", "de"] as const) {
  test(`screenshots of the home page and the phone menu in ${locale}`, SCREENSHOTS_TAG, async ({ browser }) => {
    const context = await browser.newContext({ locale: locale === "de" ? "de-DE" : "en-GB" });
    const page = await context.newPage();
    const shoot = async (name: string, widths = [360, 1280]) => {
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      for (const width of widths) {
        await page.setViewportSize({ width, height: 800 });
        await page.screenshot({ path: `tests/artifacts/screenshots/${name}-${locale}-${width}.png`, fullPage: true });
      }
    };
    await page.goto("/");
    await shoot("home");
    await page.goto("/portal/catalogs");
    await fillLogin(page, "supplier@demo.test", "Supplier#2026");
    await expect(page).toHaveURL(/\/portal\/catalogs$/);
    await shoot("portal-catalogs");
    await page.setViewportSize({ width: 360, height: 800 });
    await menuButton(page).click();
    await shoot("menu-open", [360]);
    await context.close();
  });
}
