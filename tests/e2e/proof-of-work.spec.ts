/**
 * The proof of work in a browser, on a server of its own with PROOF_OF_WORK=on and an account threshold of one
 * failure: after a wrong password the login page shows the check, Chromium solves it with the page's own solver while
 * its state is announced, a submit made before it is done waits for it, and the right password signs in. The page
 * passes axe with the check on it.
 */
import { expect, test } from "@playwright/test";
import { violations } from "./axe";
import { startOwnServer, type OwnServer } from "./raw-http";

let server: OwnServer;

test.beforeAll(async () => {
  server = await startOwnServer({
    PROOF_OF_WORK: "on",
    PROOF_OF_WORK_ACCOUNT_FAILURES: "1",
    PROOF_OF_WORK_DIFFICULTY: "200000",
  });
});
test.afterAll(async ({ browser }) => {
  for (const context of browser.contexts()) await context.close();
  await server?.stop();
});

test("a wrong password brings the check, which the browser solves before the right one is sent", async ({ page }) => {
  const base = `http://localhost:${server.port}`;
  await page.goto(`${base}/login`);
  await page.fill("input[name=username]", "optician@demo.test");
  await page.locator("button[type=submit]").click();
  await expect(page.locator("[data-proof-of-work]")).toHaveCount(0);
  await page.fill("input[name=password]", "not the password");
  await page.locator("button[type=submit]").click();
  await expect(page.getByText("The email address or password is not correct.")).toBeVisible();

  const check = page.locator("[data-proof-of-work]");
  await expect(check).toBeVisible();
  await expect(check.getByRole("status")).not.toBeEmpty();
  expect(await violations(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath("login-with-check.png"), fullPage: true });
  // Sent at once: the form waits for the check, then goes on by itself.
  await page.fill("input[name=password]", "Optician#2026");
  await page.locator("button[type=submit]").click();
  await page.waitForURL((url) => url.pathname === "/portal");
  expect(server.log()).not.toContain(`"level":"error"`);
});

test("the check's states and progress are announced in the page's language", async ({ page }) => {
  const base = `http://localhost:${server.port}`;
  await page.goto(`${base}/login?ui_locales=de`);
  await page.fill("input[name=username]", "supplier@demo.test");
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", "falsch");
  await page.locator("button[type=submit]").click();
  const check = page.locator("[data-proof-of-work]");
  await expect(check.getByRole("status")).toHaveText(/Browser|Prüfung/);
  await expect(check).toHaveAttribute("data-proof-of-work", "done", { timeout: 30_000 });
  await expect(check.getByRole("status")).toHaveText(/Prüfung abgeschlossen/);
  await expect(page.locator("input[name=proof_of_work]")).not.toHaveValue("");
});
