import { expect, test } from "@playwright/test";

test.describe("home page", () => {
  test.describe("in English", () => {
    test.use({ locale: "en-GB" });
    test("says what OptiGate is and links to discovery and the portal", async ({ page }) => {
      await page.goto("/");
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("One sign-in for the optics trade platform");
      await expect(page.getByText(/OptiGate is the sign-in service of the optics trade platform/)).toBeVisible();
      await expect(page.getByRole("link", { name: "Discovery document" })).toHaveAttribute(
        "href",
        "/.well-known/openid-configuration",
      );
      await expect(page.getByRole("link", { name: "Open the portal" })).toHaveAttribute("href", "/portal/applications");
    });
  });

  test.describe("in German", () => {
    test.use({ locale: "de-DE" });
    test("is shown in German for a German browser", async ({ page }) => {
      await page.goto("/");
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(
        "Eine Anmeldung für die Handelsplattform der Augenoptik",
      );
      await expect(page.getByRole("link", { name: "Discovery-Dokument" })).toHaveAttribute(
        "href",
        "/.well-known/openid-configuration",
      );
      await expect(page.getByRole("link", { name: "Zum Portal" })).toHaveAttribute("href", "/portal/applications");
    });

    test("says in German that a page does not exist, and confirms a sign-out everywhere", async ({ page }) => {
      const missing = await page.goto("/no-such-page");
      expect(missing!.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Seite nicht gefunden");
      await page.goto("/?signedOut=everywhere");
      await expect(page.getByRole("status")).toContainText("in allen Sitzungen abgemeldet");
      expect((await page.request.get("/icon.svg")).status()).toBe(200);
    });
  });

  test("the demo server is healthy with the demo data loaded", async ({ request }) => {
    const health = await request.get("/api/health");
    expect(health.status()).toBe(200);
    // Without the metrics token the answer names neither the database nor its migrations.
    expect(await health.json()).toEqual({ status: "ok" });
  });
});
