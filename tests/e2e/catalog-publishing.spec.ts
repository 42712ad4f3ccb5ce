/** A supplier publishes a catalog through the catalog page; opticians see it only once it is released. */
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { violations } from "./axe";
import { SCREENSHOTS_TAG } from "./screenshots";

const EXAMPLE = readFileSync("docs/catalog-example.xml", "utf8");
// A catalog of its own, so that the demo catalogs other tests read stay as they are.
const SWISS = EXAMPLE.replace(
  'catalogID="catalog.xml" resourceKey="DLAG-DE"',
  'catalogID="catalog_CH.xml" resourceKey="DLAG-CH"',
).replace("<ValidCountry>DE</ValidCountry>", "<ValidCountry>CH</ValidCountry>");

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/portal/catalogs");
  await page.fill("input[name=username]", email);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
}

const uploadFile = (page: Page, content: string) =>
  page.setInputFiles("input[name=catalog]", {
    name: "catalog.xml",
    mimeType: "text/xml",
    buffer: Buffer.from(content),
  });

test("a supplier uploads a catalog file, sees errors by line, imports and releases it; the optician then downloads it", async ({
  page,
  request,
}) => {
  await signIn(page, "supplier@demo.test", "Supplier#2026");
  await expect(page).toHaveURL(/\/portal\/catalogs$/);
  await expect(page.getByRole("navigation").getByRole("link", { name: "Catalogs" })).toBeVisible();
  await expect(page.locator("[data-catalog-id='catalog.xml'] tr[data-revision='3']")).toContainText("not released");

  await uploadFile(page, SWISS.replace("<PurchasePrice>10.90", "<PurchasePrice>10,90"));
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.locator("[data-import-result=failed]")).toContainText(
    'Line 20: <PurchasePrice> "10,90" is not an amount',
  );
  await expect(page.locator("[data-catalog-id='catalog_CH.xml']")).toHaveCount(0);
  await expect(page.getByText("Demo Lens AG · supplier ID DLAG")).toBeVisible();

  // A file without its product groups: one error, where they are missing.
  await uploadFile(page, SWISS.replace(/<ProductGroups>[\s\S]*?<\/ProductGroups>\s*/, ""));
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.locator("[data-import-result=failed] li")).toHaveText([
    "Line 8: <Catalog> needs a <ProductGroups> before <Articles>",
  ]);

  await uploadFile(page, SWISS);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.locator("[data-import-result=ok]")).toHaveText(
    "Revision 1 of catalog_CH.xml was imported with 3 articles. It is not released yet.",
  );
  const row = page.locator("[data-catalog-id='catalog_CH.xml'] tr[data-revision='1']");
  await expect(row).toContainText("not released");

  const login = await request.post("/services/login/SilentLogin", {
    form: { username: "optician@demo.test", password: "Optician#2026" },
  });
  const { ticket } = await login.json();
  const download = () =>
    request.get(
      `/getSubCatalog.ashx?${new URLSearchParams({ ticket, companyID: "demo-company-lens", catalogResourceKey: "DLAG-CH", revision: "1" })}`,
    );
  expect((await download()).status()).toBe(403);

  await row.getByRole("button", { name: "Release" }).click();
  await expect(page.getByText("Release revision 1 of catalog_CH.xml?")).toBeVisible();
  await page.getByRole("button", { name: "Yes, release" }).click();
  await expect(page.getByRole("status")).toHaveText("Revision 1 of catalog_CH.xml is released.");
  await expect(row).toContainText("released");
  await expect(row.getByRole("button", { name: "Release" })).toHaveCount(0);

  const released = await download();
  expect(released.status()).toBe(200);
  expect(await released.text()).toContain(
    '<Article articleNumber="SV-150" customerGroup="5" whiteLabel="false"><Name>Einstärkenglas 1.5</Name><PurchasePrice>10.90</PurchasePrice>',
  );
  expect(await (await request.get("/getCatalogInfos.ashx?validCountry=CH")).text()).toContain(
    "<ResourceKey>DLAG-CH</ResourceKey>",
  );
});

test("an optician has no catalog page and no link to it", async ({ page }) => {
  await signIn(page, "optician@demo.test", "Optician#2026");
  expect((await page.goto("/portal/catalogs"))!.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
  await expect(page.getByRole("navigation").getByRole("link", { name: "Catalogs" })).toHaveCount(0);
});

for (const locale of ["en", "de"] as const) {
  test(`screenshots of the catalog page in ${locale}`, SCREENSHOTS_TAG, async ({ browser }) => {
    const context = await browser.newContext({ locale: locale === "de" ? "de-DE" : "en-GB" });
    const page = await context.newPage();
    await signIn(page, "supplier@demo.test", "Supplier#2026");
    await uploadFile(
      page,
      EXAMPLE.replace("<PurchasePrice>10.90", "<PurchasePrice>10,90").replace(
        "<EndDate>2027-09-30",
        "<EndDate>2027-13-30",
      ),
    );
    await page.locator("form[enctype='multipart/form-data'] button[type=submit]").click();
    await expect(page.locator("[data-import-result=failed] li").first()).toHaveText(
      locale === "de"
        ? /^Zeile 20: <PurchasePrice>: „10,90“ ist kein Betrag wie 12\.50/
        : /^Line 20: <PurchasePrice> "10,90" is not an amount such as 12\.50/,
    );
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    expect(await violations(page)).toEqual([]);
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      // Nothing sticks out sideways, the header with its extra link for suppliers included.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `tests/artifacts/screenshots/catalogs-${locale}-${width}.png`, fullPage: true });
    }
    await page.goto("/portal/catalogs?release=catalog.xml:3");
    await page.screenshot({ path: `tests/artifacts/screenshots/catalogs-release-${locale}-1280.png`, fullPage: true });
    await context.close();
  });
}
