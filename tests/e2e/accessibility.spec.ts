/**
 * Every page, as each role that may see it, checked with axe against WCAG 2.2 level AA (and the A and AA rules of 2.0
 * and 2.1 it builds on); the visitor's and the optician's pages in German too, whose long words try the layouts. A
 * violation fails with axe's rule id, the element and the fix.
 */
import { expect, test, type Page } from "@playwright/test";
import { violations } from "./axe";

const authorize = `/connect/authorize?${new URLSearchParams({
  client_id: "demo-web",
  redirect_uri: "http://localhost:4000/callback",
  response_type: "code",
  scope: "openid profile email platform.catalogs.read offline_access",
  state: "s",
  prompt: "consent",
})}`;

/** Who looks at which pages; `null` is a visitor who is not signed in. */
const VISITS: { user: [string, string] | null; paths: string[] }[] = [
  {
    user: null,
    paths: [
      "/",
      "/login",
      "/login?step=password",
      "/login?step=password&notice=sso_link",
      "/no-such-page",
      "/invitation?token=unknown",
      "/password/forgot",
      "/password/reset",
      "/docs/api",
      "/docs/manage",
      "/docs/relying-parties",
    ],
  },
  {
    user: ["optician@demo.test", "Optician#2026"],
    paths: [
      "/portal/applications",
      "/portal/profile",
      "/portal/security",
      "/portal/suppliers",
      "/portal/company",
      authorize,
      "/device",
      "/device?user_code=BCDF-GHJK&error=wrong_code",
      "/device?done=approved",
      "/signout",
      "/admin/clients",
    ],
  },
  { user: ["supplier@demo.test", "Supplier#2026"], paths: ["/portal/catalogs", "/portal/suppliers"] },
  {
    user: ["developer@demo.test", "Developer#2026"],
    paths: [
      "/portal/developer",
      "/portal/developer?kind=web",
      "/portal/developer?edit=praxissoft-termine&remove=1",
      "/portal/developer?edit=praxissoft-termine",
      "/portal/developer/praxissoft-termine",
    ],
  },
  {
    user: ["admin@demo.test", "Admin#2026"],
    paths: [
      "/admin/clients",
      "/admin/clients/demo-web",
      "/admin/companies",
      "/admin/companies/demo-company-lens",
      "/admin/companies/demo-company-vendor",
      "/admin/outbox",
      "/admin/clients/praxissoft-termine",
      "/admin/audit",
      "/admin/federation",
    ],
  },
];

const RENDERED_IN_BROWSER = ["/docs/api", "/docs/manage"];

async function signIn(page: Page, [email, password]: [string, string]) {
  await page.goto("/login");
  await page.fill("input[name=username]", email);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", password);
  await page.locator("button[type=submit]").click();
  await page.waitForURL((url) => url.pathname !== "/login");
}

test("the check finds a violation where there is one", async ({ page }) => {
  await page.setContent(
    '<html lang="en"><head><title>t</title></head><body><main><img src="x.png"><a href="/"></a></main></body></html>',
  );
  expect((await violations(page)).map((line) => line.split(" ")[0]).sort()).toEqual(["image-alt", "link-name"]);
});

const CHECKED = [
  { locale: "en-GB", visits: VISITS },
  { locale: "de-DE", visits: VISITS.slice(0, 2) },
];

for (const { locale, visits } of CHECKED) {
  for (const { user, paths } of visits) {
    test(`pages of ${user?.[0] ?? "a visitor"} in ${locale} meet WCAG 2.2 AA`, async ({ browser }) => {
      test.setTimeout(30_000 + paths.length * 15_000);
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      if (user) await signIn(page, user);
      const found: Record<string, string[]> = {};
      for (const path of paths) {
        await page.goto(path);
        // The API references render in the browser, after their script and document have loaded.
        if (RENDERED_IN_BROWSER.includes(path)) await page.locator(".scalar-app h1").first().waitFor();
        const problems = await violations(page);
        if (problems.length > 0) found[new URL(page.url()).pathname] = problems;
      }
      await context.close();
      expect(found).toEqual({});
    });
  }
}
