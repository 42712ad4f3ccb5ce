/** The operator pages: refused (403) to non-operators; an operator registers a client and sees its secret once. */
import { expect, test, type Page } from "@playwright/test";
import { trustPartner } from "./trusted-partner";

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/admin/clients");
  await page.fill("input[name=username]", email);
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
}

test("an optician gets 403 and no hint of what is there", async ({ page }) => {
  await signIn(page, "optician@demo.test", "Optician#2026");
  const response = await page.goto("/admin/clients");
  expect(response!.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
  await expect(page.getByText("demo-web")).toHaveCount(0);
  expect((await page.goto("/admin/audit"))!.status()).toBe(403);
});

test("an operator registers a client, sees its secret once, and finds it in the audit trail", async ({ page }) => {
  await signIn(page, "admin@demo.test", "Admin#2026");
  await expect(page).toHaveURL(/\/admin\/clients$/);
  await expect(page.locator("[data-client-id=demo-web]")).toBeVisible();
  await page.fill(
    "textarea[name=metadata]",
    JSON.stringify({ client_id: "e2e-shop", client_name: "E2E shop", redirect_uris: ["https://e2e.example/cb"] }),
  );
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/admin\/clients\/e2e-shop\?created=1/);
  const secret = await page.locator("[data-new-secret]").textContent();
  expect(secret).toMatch(/^[\w-]{43}$/);
  await page.reload();
  await expect(page.locator("[data-new-secret]")).toHaveCount(0); // shown once, not again on a reload
  await page.goto("/admin/audit?client=e2e-shop");
  await expect(page.locator("[data-event-type='client.registered']")).toHaveCount(1);
});

for (const locale of ["en", "de"] as const) {
  test(`screenshots of the operator pages in ${locale}`, async ({ browser }) => {
    trustPartner();
    const context = await browser.newContext({ locale: locale === "de" ? "de-DE" : "en-GB" });
    const page = await context.newPage();
    await signIn(page, "admin@demo.test", "Admin#2026");
    for (const [name, path] of [
      ["admin-clients", "/admin/clients"],
      ["admin-client", "/admin/clients/demo-web"],
      ["admin-audit", "/admin/audit"],
      ["admin-federation", "/admin/federation"],
    ] as const) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        await page.screenshot({ path: `tests/artifacts/screenshots/${name}-${locale}-${width}.png`, fullPage: true });
      }
    }
    await context.close();
  });
}
