/**
 * Each role lands on its home from a sign-in without a return address: the operator on the platform's dashboard at
 * /admin, the others on /portal with what needs doing first (a company's administrator also with the company's
 * dashboard), at 1280 and 390 px, in English and German, each page passing axe. Screenshots of every home at both
 * widths go to tests/artifacts/screenshots. Then what a company administrator's dashboard holds, in the raw HTML and
 * the RSC payload: the platform's figures and other companies' names never, where the operator's has them.
 */
import { expect, test, type Page } from "@playwright/test";
import { violations } from "./axe";
import { rawBody, signedInContext, VARIANTS } from "./raw-pages";
import { SCREENSHOTS_TAG } from "./screenshots";

const ROLES = [
  {
    role: "operator",
    email: "admin@demo.test",
    password: "Admin#2026",
    lands: "/admin",
    home: "[data-dashboard=platform]",
  },
  {
    role: "supplier",
    email: "supplier@demo.test",
    password: "Supplier#2026",
    lands: "/portal",
    home: "[data-home=supplier]",
  },
  {
    role: "optician",
    email: "optician@demo.test",
    password: "Optician#2026",
    lands: "/portal",
    home: "[data-home=optician]",
  },
  {
    role: "partner",
    email: "developer@demo.test",
    password: "Developer#2026",
    lands: "/portal",
    home: "[data-home=partner]",
  },
] as const;

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.fill("input[name=username]", email);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
}

for (const locale of ["en", "de"] as const)
  for (const { role, email, password, lands, home } of ROLES)
    test(`the ${role} lands on their home in ${locale}, at 1280 and 390 px`, SCREENSHOTS_TAG, async ({ browser }) => {
      const context = await browser.newContext({ locale: locale === "de" ? "de-DE" : "en-GB" });
      const page = await context.newPage();
      await signIn(page, email, password);
      await page.waitForURL((url) => url.pathname === lands);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.locator(home)).toBeVisible();
      // Every figure on a home links to its list.
      for (const link of await page.locator("[data-task] a, [data-figure] a").all())
        expect(await link.getAttribute("href")).toMatch(/^\/(portal|admin)\//);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
        expect(overflow, `${role} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
        expect(await violations(page)).toEqual([]);
        await page.screenshot({
          path: `tests/artifacts/screenshots/home-${role}-${locale}-${width}.png`,
          fullPage: true,
        });
      }
      await context.close();
    });

test("the portal's address leads each person home, and a sign-in with a return address still goes there", async ({
  page,
}) => {
  await page.goto("/portal");
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fportal$/);
  await page.fill("input[name=username]", "admin@demo.test");
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", "Admin#2026");
  await page.locator("button[type=submit]").click();
  await page.waitForURL((url) => url.pathname === "/admin");
  await page.goto("/portal/profile");
  await expect(page).toHaveURL(/\/portal\/profile$/);
});

test("a company administrator's dashboard shows their company only, in the HTML and the RSC payload", async ({
  baseURL,
  request,
}) => {
  // A download of the lens supplier's catalog puts its name on the platform's dashboard.
  const login = await request.post("/services/login/SilentLogin", {
    form: { username: "optician@demo.test", password: "Optician#2026" },
  });
  const { ticket } = await login.json();
  const query = new URLSearchParams({
    ticket,
    companyID: "demo-company-lens",
    catalogResourceKey: "DLAG-DE",
    revision: "1",
  });
  expect((await request.get(`/getSubCatalog.ashx?${query}`)).status()).toBe(200);
  const operator = await signedInContext(baseURL!, ["admin@demo.test", "Admin#2026"]);
  const administrator = await signedInContext(baseURL!, ["optician@demo.test", "Optician#2026"]);
  const supplierUser = await signedInContext(baseURL!, ["supplier@demo.test", "Supplier#2026"]);
  // The download is counted within a few seconds, then the operator sees it.
  await expect
    .poll(async () => (await rawBody(operator, "/admin", {})).body.includes("Demo Lens AG"), { timeout: 15_000 })
    .toBe(true);
  for (const [variant, headers] of Object.entries(VARIANTS)) {
    const own = await rawBody(administrator, "/portal", headers);
    expect(own.status, variant).toBe(200);
    expect(own.body, variant).toContain("Augenoptik Demo GmbH");
    const attribute = (value: string) =>
      variant === "html" ? `data-dashboard="${value}"` : `"data-dashboard":"${value}"`;
    expect(own.body, variant).toContain(attribute("company"));
    for (const marker of ["Demo Lens AG", "Frame Works GmbH", "OptiGate Operations", attribute("platform")])
      expect(own.body.includes(marker), `${variant} holds ${marker}`).toBe(false);
    // The dashboard is the administrators': a supplier's user has tasks, no company figures; /admin is closed.
    const user = await rawBody(supplierUser, "/portal", headers);
    expect(user.body.includes("data-dashboard"), `${variant}: a user's home has no dashboard`).toBe(false);
    const admin = await rawBody(administrator, "/admin", headers);
    // The HTML answer is a 403; the RSC payload of Next.js's forbidden page comes as 200, and holds nothing either.
    expect(admin.status, variant).toBe(variant === "html" ? 403 : 200);
    for (const marker of ["Demo Lens AG", attribute("platform")])
      expect(admin.body.includes(marker), `${variant} /admin holds ${marker}`).toBe(false);
  }
  for (const context of [operator, administrator, supplierUser]) await context.dispose();
});
