/**
 * The audit page names events, details and their values in the page's language (lib/admin/audit-labels.ts), never
 * by recorded keys such as `amr` or `sign_in_failed`: read in an English and a German browser, with a screenshot of
 * each in tests/artifacts/screenshots/.
 */
import { expect, test, type Page } from "@playwright/test";

const LANGUAGES = {
  en: {
    browser: "en-GB",
    succeeded: { event: "Signed in", details: { amr: ["Sign-in methods", "password"], sessionId: ["Session", /./] } },
    failed: { event: "Sign-in failed", details: { reason: ["Reason", "wrong user name or password"] } },
  },
  de: {
    browser: "de-DE",
    succeeded: { event: "Angemeldet", details: { amr: ["Anmeldemethoden", "Passwort"], sessionId: ["Sitzung", /./] } },
    failed: {
      event: "Anmeldung fehlgeschlagen",
      details: { reason: ["Grund", "falscher Benutzername oder falsches Passwort"] },
    },
  },
} as const;

async function signIn(page: Page, username: string, password: string) {
  await page.fill("input[name=username]", username);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
}

test.beforeAll(async ({ browser }) => {
  // A sign-in of the optician and a failed one of nobody, so that the trail holds both kinds of row.
  const page = await browser.newPage();
  await page.goto("/login");
  await signIn(page, "nobody-audit-labels@demo.test", "not a password");
  await expect(page).toHaveURL(/error=invalid_credentials/);
  await page.goto("/portal/profile");
  await signIn(page, "optician@demo.test", "Optician#2026");
  await expect(page).toHaveURL(/\/portal\/profile/);
  await page.close();
});

for (const [locale, expected] of Object.entries(LANGUAGES)) {
  test(`the audit page in ${locale} labels events, details and values in words of its own`, async ({ browser }) => {
    const context = await browser.newContext({ locale: expected.browser });
    const page = await context.newPage();
    await page.goto("/admin/audit");
    await signIn(page, "admin@demo.test", "Admin#2026");
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await page.goto("/admin/audit?kind=sign_in.");
    await expect(page.locator("html")).toHaveAttribute("lang", locale);

    for (const kind of ["succeeded", "failed"] as const) {
      const row = page.locator(`[data-event-type="sign_in.${kind}"]`).first();
      await expect(row).toContainText(expected[kind].event);
      for (const [key, [name, value]] of Object.entries(expected[kind].details)) {
        const detail = row.locator(`[data-detail="${key}"]`);
        await expect(detail.locator("dt")).toHaveText(name);
        await expect(detail.locator("dd")).toHaveText(value);
      }
    }
    // No recorded name anywhere on the page: none with an underscore or a capital inside (sign_in, sessionId).
    const names = await page.locator("main dt").allTextContents();
    expect(names.length).toBeGreaterThan(2);
    expect(names.filter((name) => /_|[a-z][A-Z]/.test(name))).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: `tests/artifacts/screenshots/audit-labels-${locale}.png`, fullPage: true });
    await context.close();
  });
}
