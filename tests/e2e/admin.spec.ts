/**
 * The operator pages: refused (403) to non-operators; an operator registers a client of each kind through the form
 * (or as JSON), hands the developer what they need from a copyable box, sees a refused form again with the error at
 * its field (not in the URL), and reads the audit trail in words.
 */
import { expect, test, type Page } from "@playwright/test";
import { trustPartner } from "./trusted-partner";
import { SCREENSHOTS_TAG } from "./screenshots";

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/admin/clients");
  await page.fill("input[name=username]", email);
  await page.locator("button[type=submit]").click();
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
  await page.getByText("Advanced: register from client metadata (JSON)").click();
  await page.fill(
    "textarea[name=metadata]",
    JSON.stringify({ client_id: "e2e-shop", client_name: "E2E shop", redirect_uris: ["https://e2e.example/cb"] }),
  );
  await page.getByRole("button", { name: "Register from metadata" }).click();
  await expect(page).toHaveURL(/\/admin\/clients\/e2e-shop\?created=1/);
  const secret = await page.locator("[data-new-secret]").textContent();
  expect(secret).toMatch(/^[\w-]{43}$/);
  await page.reload();
  await expect(page.locator("[data-new-secret]")).toHaveCount(0); // shown once, not again on a reload
  await page.goto("/admin/audit?actor=e2e-shop");
  await expect(page.locator("[data-event-type='client.registered']")).toHaveCount(1);
});

/** Each kind's form, filled as an operator would; scopes are checkboxes, lists one entry a line. */
const KIND_FORMS = {
  browser: {
    link: "Browser app",
    fields: { redirect_uris: "https://spa.e2e.example/cb", allowed_cors_origins: "https://spa.e2e.example" },
    secret: false,
  },
  native: { link: "Native app", fields: { redirect_uris: "com.example.e2e:/callback" }, secret: false },
  web: { link: "Server web application", fields: { redirect_uris: "https://web.e2e.example/cb" }, secret: true },
  backend: { link: "Backend service", fields: { company_id: "demo-company-frames" }, secret: true },
} as const;

test("an operator registers a client of each kind through the form and gets a box to hand over", async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, "admin@demo.test", "Admin#2026");
  for (const [kind, form] of Object.entries(KIND_FORMS)) {
    await page.goto("/admin/clients");
    await page.getByRole("link", { name: new RegExp(`^${form.link}`) }).click();
    await expect(page.locator(`form[data-client-kind=${kind}]`)).toBeVisible();
    await page.fill("#client_name", `E2E ${kind}`);
    await page.fill("#client_id", `e2e-form-${kind}`);
    for (const [field, value] of Object.entries(form.fields)) await page.fill(`#${field}`, value);
    if (kind === "backend") await page.getByLabel(/platform\.catalogs\.read/).check();
    await page.getByRole("button", { name: "Register", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/clients/e2e-form-${kind}\\?created=1$`));
    const handover = page.locator("[data-handover]");
    await expect(handover).toContainText(`${baseURL}/.well-known/openid-configuration`);
    await expect(handover).toContainText(`e2e-form-${kind}`);
    await expect(page.locator("[data-new-secret]")).toHaveCount(form.secret ? 1 : 0);
  }
  // The last one (backend) has a secret: "Copy all" puts everything on the clipboard and says so.
  const secret = (await page.locator("[data-new-secret]").textContent())!;
  await page.getByRole("button", { name: "Copy all" }).click();
  await expect(page.getByText("Copied.")).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("Client ID: e2e-form-backend");
  expect(copied).toContain(`Client secret: ${secret}`);
  await page.getByRole("button", { name: "Copy Client ID" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("e2e-form-backend");

  await page.goto("/admin/audit?actor=e2e-form-backend&kind=client.registered");
  const row = page.locator("[data-event-type='client.registered']");
  await expect(row).toContainText("Client registered");
  await expect(row.locator("dt")).toHaveText(["Kind"]);
  await expect(row.locator("dd")).toHaveText(["Backend service"]);
});

test("a refused form comes back with what was typed and the error at its field, not in the URL", async ({ page }) => {
  await signIn(page, "admin@demo.test", "Admin#2026");
  await page.goto("/admin/clients?kind=browser");
  await page.fill("#client_name", "Refused finder");
  await page.fill("#redirect_uris", "https://spa.refused.example/cb");
  await page.fill("#allowed_cors_origins", "https://spa.refused.example/with/a/path");
  await page.getByRole("button", { name: "Register", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/clients#register$/);
  expect(page.url()).not.toContain("refused");
  const field = page.locator("#allowed_cors_origins");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAttribute("aria-describedby", /allowed_cors_origins-error/);
  await expect(page.locator("#allowed_cors_origins-error")).toContainText("without a path");
  await expect(page.locator("#allowed_cors_origins-error")).not.toContainText("Technical detail");
  await expect(field).toHaveValue("https://spa.refused.example/with/a/path");
  await expect(page.locator("#client_name")).toHaveValue("Refused finder");
  await expect(page.locator("#redirect_uris")).toHaveValue("https://spa.refused.example/cb");
  await page.reload(); // the draft is shown once
  await expect(page.locator("#allowed_cors_origins-error")).toHaveCount(0);
});

/** Screenshots at a phone's and a desktop's width, the phone's without sideways scrolling. */
async function shoot(page: Page, name: string) {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    if (width === 360) await expectNoSidewaysScroll(page, name);
    await page.screenshot({ path: `tests/artifacts/screenshots/${name}-${width}.png`, fullPage: true });
  }
}

/** Every operator page fits a phone: nothing wider than the screen. */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, where).toBeLessThanOrEqual(360);
}

for (const locale of ["en", "de"] as const) {
  test(`screenshots of the operator pages in ${locale}`, SCREENSHOTS_TAG, async ({ browser }) => {
    test.setTimeout(150_000); // eleven pages, each at two widths, on a machine that may be busy
    trustPartner();
    const context = await browser.newContext({ locale: locale === "de" ? "de-DE" : "en-GB" });
    const page = await context.newPage();
    await signIn(page, "admin@demo.test", "Admin#2026");
    for (const [name, path] of [
      ["admin-clients", "/admin/clients"],
      ["admin-clients-browser", "/admin/clients?kind=browser"],
      ["admin-clients-backend", "/admin/clients?kind=backend"],
      ["admin-client", "/admin/clients/demo-web"],
      ["admin-audit", "/admin/audit"],
      ["admin-federation", "/admin/federation"],
      ["admin-companies", "/admin/companies"],
      ["admin-company", "/admin/companies/demo-company-optician"],
      ["admin-outbox", "/admin/outbox"],
    ] as const) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await shoot(page, `${name}-${locale}`);
    }
    // A refused form with its error at the field, and the box a new client's developer gets.
    await page.goto("/admin/clients?kind=web");
    await page.fill("#client_name", `Shop ${locale}`);
    await page.fill("#redirect_uris", "http://shop.example/callback");
    await page.locator("form[data-client-kind=web] button[type=submit]").click();
    await expect(page.locator("#redirect_uris")).toHaveAttribute("aria-invalid", "true");
    await shoot(page, `admin-clients-refused-${locale}`);
    await page.fill("#redirect_uris", "https://shop.example/callback");
    await page.fill("#client_id", `shop-${locale}`);
    await page.locator("form[data-client-kind=web] button[type=submit]").click();
    await expect(page.locator("[data-new-secret]")).toHaveCount(1);
    await shoot(page, `admin-client-created-${locale}`);
    await context.close();
  });
}
