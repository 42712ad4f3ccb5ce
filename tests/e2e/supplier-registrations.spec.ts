/**
 * /portal/suppliers in the browser: an optician requests a registration at Frame Works, Frame Works' user approves
 * it with customer groups after a confirmation step, and the optician's ticket then downloads that supplier's
 * catalog; the optician withdraws it again. Screenshots in both languages at 360 and 1280 px.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { violations } from "./axe";
import { SCREENSHOTS_TAG } from "./screenshots";

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/portal/suppliers");
  await page.fill("input[name=username]", email);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
  await expect(page).toHaveURL(/\/portal\/suppliers$/);
}

async function framesDownloadStatus(page: Page): Promise<number> {
  const login = await page.request.post("/services/login/SilentLogin", {
    form: { username: "optician@demo.test", password: "Optician#2026" },
  });
  const { ticket } = await login.json();
  const query = new URLSearchParams({
    ticket,
    companyID: "demo-company-frames",
    catalogResourceKey: "FWG-DE",
    revision: "1",
  });
  return (await page.request.get(`/getSubCatalog.ashx?${query}`)).status();
}

async function screenshots(
  browser: Browser,
  locale: "en" | "de",
  email: string,
  password: string,
  name: string,
  path = "/portal/suppliers",
) {
  const context = await browser.newContext({ locale: locale === "de" ? "de-DE" : "en-GB" });
  const page = await context.newPage();
  await signIn(page, email, password);
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({
      path: `tests/artifacts/screenshots/suppliers-${name}-${locale}-${width}.png`,
      fullPage: true,
    });
  }
  await context.close();
}

test("an optician requests a registration, the supplier approves it, the catalog services follow, the optician withdraws", async ({
  browser,
}) => {
  const optician = await (await browser.newContext({ locale: "en-GB" })).newPage();
  await signIn(optician, "optician@demo.test", "Optician#2026");
  await expect(optician.getByRole("navigation").getByRole("link", { name: "Suppliers" })).toBeVisible();
  await expect(optician.locator("section[data-registration-id] [data-status=active]")).toHaveCount(1);
  expect(await framesDownloadStatus(optician)).toBe(401);

  await optician.fill("input[name=q]", "frame");
  await optician.getByRole("button", { name: "Search" }).click();
  const frames = optician.locator("[data-supplier-id=FWG]");
  await expect(frames).toContainText("Frame Works GmbH");
  // A customer number of spaces passes the browser's check, not the server's: the form comes back as it was typed.
  await frames.locator("input[name=client_id]").fill("   ");
  await frames.locator("input[name=catalog]").first().uncheck();
  await frames.getByRole("button", { name: "Send request" }).click();
  await expect(optician).toHaveURL(/\/portal\/suppliers\?q=frame#client-id-FWG$/);
  const customerNumber = frames.locator("input[name=client_id]");
  await expect(customerNumber).toHaveAttribute("aria-invalid", "true");
  await expect(customerNumber).toHaveAttribute("aria-describedby", "client-id-FWG-error client-id-FWG-hint");
  await expect(optician.locator("#client-id-FWG-error")).toHaveText(
    "Please enter your customer number (up to 40 characters).",
  );
  await expect(customerNumber).toHaveValue("   ");
  await expect(frames.locator("input[name=catalog]").first()).not.toBeChecked();
  await frames.locator("input[name=catalog]").first().check();
  await customerNumber.fill("K-4711");
  await frames.getByRole("button", { name: "Send request" }).click();
  await expect(optician.getByRole("status")).toHaveText(
    "Your request was sent. The supplier will approve or reject it.",
  );
  const request = optician.locator("section[data-registration-id]", { hasText: "Frame Works GmbH" });
  await expect(request.locator("[data-status=requested]")).toBeVisible();

  const supplier = await (await browser.newContext({ locale: "en-GB" })).newPage();
  await signIn(supplier, "frames@demo.test", "Frames#2026");
  const pending = supplier.locator("section[data-registration-id]", { hasText: "K-4711" });
  await pending.getByRole("button", { name: "Approve" }).click();
  await expect(supplier.getByText("Approve Augenoptik Demo GmbH as customer K-4711?")).toBeVisible();
  await supplier.fill("input[name=customer_groups]", "0");
  await supplier.getByRole("button", { name: "Yes, approve" }).click();
  // Refused at the field: the confirmation stays open with the groups typed and the error beneath them.
  const groups = supplier.locator("input[name=customer_groups]");
  await expect(groups).toHaveValue("0");
  await expect(groups).toHaveAttribute("aria-invalid", "true");
  const groupsError = supplier.locator(`#${await groups.getAttribute("id")}-error`);
  await expect(groupsError).toContainText("Customer groups must be whole numbers");
  await expect(groups).toHaveAttribute("aria-describedby", new RegExp(`^${await groupsError.getAttribute("id")} `));
  await supplier.fill("input[name=customer_groups]", "3, 7");
  await supplier.getByRole("button", { name: "Yes, approve" }).click();
  await expect(supplier.getByRole("status")).toHaveText("The registration was approved.");
  await expect(supplier.locator("section[data-registration-id]", { hasText: "K-4711" })).toContainText(
    "Customer groups: 3, 7",
  );
  expect(await framesDownloadStatus(optician)).toBe(200);

  // The supplier opens the confirmation step to end it; meanwhile the optician withdraws.
  await supplier
    .locator("section[data-registration-id]", { hasText: "K-4711" })
    .getByRole("button", { name: "End registration" })
    .click();
  await expect(supplier.getByText("End the registration of Augenoptik Demo GmbH?")).toBeVisible();
  await optician.reload();
  await request.getByRole("button", { name: "Withdraw" }).click();
  await optician.getByRole("button", { name: "Yes, withdraw" }).click();
  await expect(optician.getByRole("status")).toHaveText("Your registration was withdrawn.");
  await expect(request.locator("[data-status=withdrawn]")).toBeVisible();
  expect(await framesDownloadStatus(optician)).toBe(401);
  // The supplier's form names the version it was shown: the change is reported as stale, not applied.
  await supplier.getByRole("button", { name: "Yes, end it" }).click();
  await expect(supplier.locator("p[role=alert]")).toHaveText(
    "Someone changed this registration in the meantime. Please check it and try again.",
  );
});

test("the page is for opticians and suppliers only", async ({ page }) => {
  await signIn(page, "admin@demo.test", "Admin#2026");
  expect((await page.goto("/portal/suppliers"))!.status()).toBe(403);
  await expect(page.getByRole("navigation").getByRole("link", { name: "Suppliers" })).toHaveCount(0);
});

for (const locale of ["en", "de"] as const) {
  test(`screenshots of the supplier registrations page in ${locale}`, SCREENSHOTS_TAG, async ({ browser }) => {
    await screenshots(browser, locale, "optician@demo.test", "Optician#2026", "optician", "/portal/suppliers?q=demo");
    await screenshots(browser, locale, "supplier@demo.test", "Supplier#2026", "supplier");
  });

  test(`screenshots of refused registration forms in ${locale}`, SCREENSHOTS_TAG, async ({ browser }) => {
    const context = await browser.newContext({ locale: locale === "de" ? "de-DE" : "en-GB" });
    const optician = await context.newPage();
    await signIn(optician, "optician@demo.test", "Optician#2026");
    await optician.goto("/portal/suppliers?q=frame");
    await optician.locator("[data-supplier-id=FWG] input[name=client_id]").fill("  ");
    await optician.locator("[data-supplier-id=FWG] button[type=submit]").click();
    await expect(optician.locator("#client-id-FWG-error")).toBeVisible();
    await shootRefused(optician, `request-refused-${locale}`);
    await context.clearCookies();

    // Demo Lens' pending request from the demo data: refused groups leave it pending.
    const supplier = await context.newPage();
    await signIn(supplier, "supplier@demo.test", "Supplier#2026");
    const pending = supplier.locator("section[data-registration-id]", {
      has: supplier.locator("[data-status=requested]"),
    });
    await pending.locator("button[value^=approve]").click();
    await supplier.fill("input[name=customer_groups]", "1, 1");
    await supplier.locator("form[data-confirm=approve] button[type=submit]").click();
    await expect(supplier.locator("input[name=customer_groups]")).toHaveAttribute("aria-invalid", "true");
    await expect(supplier.locator("input[name=customer_groups]")).toHaveValue("1, 1");
    await shootRefused(supplier, `approve-refused-${locale}`);
    await context.close();
  });
}

/** The page as it shows a refused form, at a phone's and a desktop's width, never wider than the screen; axe finds
 * nothing against WCAG 2.2 AA in it. */
async function shootRefused(page: Page, name: string) {
  expect(await violations(page)).toEqual([]);
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `tests/artifacts/screenshots/suppliers-${name}-${width}.png`, fullPage: true });
  }
}
