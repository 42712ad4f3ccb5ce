/** The page language: ui_locales (kept through the flow), the switch, the user's preference, Accept-Language. */
import { expect, test, type Page } from "@playwright/test";

/** Opens the header's language switch and picks a language by its own name. */
async function chooseLanguage(page: Page, name: string) {
  await page.locator("header details > summary").click();
  await page.getByRole("link", { name, exact: true }).click();
}

const authorize = (extra: Record<string, string> = {}) =>
  `/connect/authorize?${new URLSearchParams({ client_id: "demo-web", redirect_uri: "http://localhost:4000/callback", response_type: "code", scope: "openid profile", state: "s", prompt: "consent", ...extra })}`;

test.describe("with a German browser", () => {
  test.use({ locale: "de-DE" });
  test("Accept-Language decides when nothing else does", async ({ page }) => {
    await page.goto(authorize());
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { name: "Anmelden" })).toBeVisible();
  });
});

test.describe("with an English browser", () => {
  test.use({ locale: "en-GB" });

  test("ui_locales wins and the flow keeps its language from login to consent", async ({ page }) => {
    await page.goto(authorize({ ui_locales: "sv-SE de" }));
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await page.fill("input[name=username]", "optician@demo.test");
    await page.locator("button[type=submit]").click();
    await page.fill("input[name=password]", "Optician#2026");
    await page.locator("button[type=submit]").click();
    await expect(page).toHaveURL(/\/consent\?/);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { name: "Zugriff erlauben?" })).toBeVisible();
  });

  test("the language switch changes the language for the rest of the session", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await chooseLanguage(page, "Deutsch");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await page.goto(authorize());
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await chooseLanguage(page, "English");
    await expect(page).toHaveURL(/\/login\?returnUrl=/);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
  });

  test("a signed-in user's preferred language applies in a new browser session", async ({ page, browser }) => {
    await page.goto("/portal/profile");
    await page.fill("input[name=username]", "supplier@demo.test");
    await page.locator("button[type=submit]").click();
    await page.fill("input[name=password]", "Supplier#2026");
    await page.locator("button[type=submit]").click();
    await expect(page).toHaveURL(/\/portal\/profile/);
    await page.selectOption("select[name=preferred_language]", "de");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status")).toHaveText("Ihre bevorzugte Sprache wurde gespeichert.");

    const fresh = await browser.newContext({ locale: "en-GB" });
    const other = await fresh.newPage();
    await other.goto("/portal/applications");
    await expect(other.locator("html")).toHaveAttribute("lang", "en");
    await other.fill("input[name=username]", "supplier@demo.test");
    await other.locator("button[type=submit]").click();
    await other.fill("input[name=password]", "Supplier#2026");
    await other.locator("button[type=submit]").click();
    await expect(other.getByRole("heading", { name: "Anwendungszugriff" })).toBeVisible();
    await expect(other.locator("html")).toHaveAttribute("lang", "de");

    // Back to the browser's language, so that later specs see the supplier's pages in the language they ask for.
    await other.goto("/portal/profile");
    await other.selectOption("select[name=preferred_language]", "");
    await other.locator("form[action='/interaction/portal'] button[type=submit]").click();
    await expect(other.getByRole("status")).toHaveText("Your preferred language was saved.");
    await expect(other.locator("html")).toHaveAttribute("lang", "en");
    await fresh.close();
  });
});
