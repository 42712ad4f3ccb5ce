/**
 * ui_locales lasts for the sign-in it came with (docs/languages.md): its login and consent pages are Polish, then the
 * portal follows the person's preferred language (German here), the language switch wins over that, and a later
 * sign-in without ui_locales is not Polish. In an English browser, so that no language comes from Accept-Language.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { redirectToClient } from "./client-redirect";

test.use({ locale: "en-GB" });

const USER = { email: "optician@demo.test", password: "Optician#2026" };
const authorize = (extra: Record<string, string> = {}) =>
  `/connect/authorize?${new URLSearchParams({ client_id: "demo-web", redirect_uri: "http://localhost:4000/callback", response_type: "code", scope: "openid profile", state: "s", prompt: "consent", ...extra })}`;

const expectLanguage = (page: Page, locale: string) => expect(page.locator("html")).toHaveAttribute("lang", locale);

/** The login page's two steps, in whatever language they are. */
async function signIn(page: Page, password = USER.password, email = USER.email) {
  await page.fill("input[name=username]", email);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
}

async function signOut(page: Page) {
  await page.goto("/signout");
  await page.locator("button[name=decision][value=logout]").click();
  await expect(page).toHaveURL(/\/signout\?done=1/);
}

/** Stores the user's preferred language from the profile page, in a browser of its own (saving sets the switch's cookie). */
async function preferLanguage(browser: Browser, language: string) {
  const context = await browser.newContext({ locale: "en-GB" });
  const page = await context.newPage();
  await page.goto("/portal/profile");
  await signIn(page);
  await expect(page).toHaveURL(/\/portal\/profile/);
  await page.selectOption("select[name=preferred_language]", language);
  await page.locator("form[action='/interaction/portal'] button[type=submit]").click();
  await expect(page).toHaveURL(/saved=1/);
  await context.close();
}

test.beforeAll(({ browser }) => preferLanguage(browser, "de"));
// Back to the browser's language, so that later specs see the optician's pages in the language they ask for.
test.afterAll(({ browser }) => preferLanguage(browser, ""));

test("an application's sign-in with ui_locales is Polish; then the preference, the switch, and no Polish after", async ({
  page,
}) => {
  await page.goto(authorize({ ui_locales: "sv pl-PL de" }));
  await expectLanguage(page, "pl");
  await expect(page.getByRole("heading", { name: "Zaloguj się" })).toBeVisible();
  await signIn(page);
  await expect(page).toHaveURL(/\/consent\?/);
  await expectLanguage(page, "pl");
  await expect(page.getByRole("heading", { name: "Zezwolić na dostęp?" })).toBeVisible();
  await redirectToClient(page, "http://localhost:4000", () =>
    page.locator("button[name=decision][value=allow]").click(),
  );

  await page.goto("/portal/applications");
  await expectLanguage(page, "de");
  await expect(page.getByRole("heading", { name: "Anwendungszugriff" })).toBeVisible();
  await page.locator("header details > summary").click();
  await page.getByRole("link", { name: "Français", exact: true }).click();
  await expect(page).toHaveURL(/\/portal\/applications$/);
  await expectLanguage(page, "fr");
  await page.goto("/portal/profile");
  await expectLanguage(page, "fr");

  await signOut(page);
  await page.goto(authorize());
  await expectLanguage(page, "fr");
});

test("a sign-in at /login?ui_locales=pl stays Polish through a wrong password, and ends there", async ({ page }) => {
  await page.goto("/login?ui_locales=pl");
  await expectLanguage(page, "pl");
  await signIn(page, "not the password");
  await expect(page).toHaveURL(/error=invalid_credentials/);
  await expect(page).not.toHaveURL(/ui_locales/);
  await expectLanguage(page, "pl");
  await expect(page.getByText("Adres e-mail lub hasło jest nieprawidłowe.")).toBeVisible();
  await page.fill("input[name=password]", USER.password);
  await page.locator("button[type=submit]").click();
  await expect(page).not.toHaveURL(/\/login/);

  await page.goto("/portal/profile");
  await expectLanguage(page, "de");
  await signOut(page);
  await page.goto("/login");
  await expectLanguage(page, "en");
  await page.goto(authorize());
  await expectLanguage(page, "en");
});

test("the language switch wins over a sign-in's ui_locales where the address does not carry it", async ({ page }) => {
  await page.goto("/login?ui_locales=pl");
  await signIn(page, "not the password", "nobody-sign-in-language@demo.test");
  await expectLanguage(page, "pl");
  await page.locator("header details > summary").click();
  await page.getByRole("link", { name: "Deutsch", exact: true }).click();
  await expect(page).toHaveURL(/error=invalid_credentials/);
  await expectLanguage(page, "de");
  await page.goto("/login");
  await expectLanguage(page, "de");
});
