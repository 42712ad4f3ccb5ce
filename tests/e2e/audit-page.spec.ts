/**
 * The audit page (issue 48: filters and paging instead of the latest 100) as raw responses per role, in the HTML and
 * in the RSC payload: the operator gets the filter form, the rows and the paging; a company's administrator, a user who
 * is none and a visitor get none of it. The operator's view is read first, so that the markers looked for are ones
 * the page really sends, and the check can fail.
 */
import { expect, test } from "@playwright/test";
import { rawBody, signedInContext, VARIANTS } from "./raw-pages";

const OPERATOR = ["admin@demo.test", "Admin#2026"] as const;
const PAGES = [
  "/admin/audit",
  "/admin/audit?kind=sign_in.&actor=optician@demo.test",
  "/admin/audit?company=demo-company-optician&from=2020-01-01",
  "/admin/audit?kind=nonsense",
];
/** What only the operator's view holds, in the HTML and the RSC payload: rows, events, the filter, people named. */
const MARKERS = ["data-event-type", "sign_in.succeeded", "Person or client", "optician@demo.test"];
/** A row of this event, as an HTML attribute or as a prop in the RSC payload. */
const row = (type: string) => new RegExp(`data-event-type"?[=:]"${type.replace(/\./g, "\\.")}"`);

test("the audit trail's filters, rows and pages reach the operator only, in the HTML and the RSC payload", async ({
  baseURL,
}) => {
  test.setTimeout(120_000);
  // Sign-ins of the optician, so that the filtered views have rows.
  await (await signedInContext(baseURL!, ["optician@demo.test", "Optician#2026"])).dispose();

  const operator = await signedInContext(baseURL!, OPERATOR);
  for (const [variant, headers] of Object.entries(VARIANTS)) {
    const all = await rawBody(operator, "/admin/audit", headers);
    expect(all.status, variant).toBe(200);
    for (const marker of MARKERS) expect(all.body, `${variant} ${marker}`).toContain(marker);
    const filtered = await rawBody(operator, "/admin/audit?kind=sign_in.&actor=optician@demo.test", headers);
    expect(filtered.body, variant).toMatch(row("sign_in.succeeded"));
    expect(filtered.body, variant).not.toMatch(row("client.registered"));
    expect(all.body, variant).toMatch(row("sign_in.succeeded"));
    const invalid = await rawBody(operator, "/admin/audit?kind=nonsense", headers);
    expect([invalid.status, invalid.body.includes("Choose an event from the list.")], variant).toEqual([200, true]);
  }
  await operator.dispose();

  const roles = {
    visitor: undefined,
    "company administrator": ["optician@demo.test", "Optician#2026"],
    "user, no administrator": ["developer@demo.test", "Developer#2026"],
    "supplier user": ["frames@demo.test", "Frames#2026"],
  } as const;
  for (const [role, credentials] of Object.entries(roles)) {
    const context = await signedInContext(baseURL!, credentials);
    for (const path of PAGES)
      for (const [variant, headers] of Object.entries(VARIANTS)) {
        const { status, body } = await rawBody(context, path, headers);
        const where = `${role} ${variant} ${path}`;
        expect([200, 307, 403], where).toContain(status);
        for (const marker of MARKERS) expect(body.includes(marker), `${where} contains ${marker}`).toBe(false);
      }
    await context.dispose();
  }
});

test("the operator pages back to older events and forth to newer ones, the filters kept", async ({ page }) => {
  await page.goto("/admin/audit");
  await page.fill("input[name=username]", OPERATOR[0]);
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", OPERATOR[1]);
  await page.locator("button[type=submit]").click();
  await page.goto("/admin/audit?kind=sign_in.");
  const older = page.getByRole("link", { name: /Older events/ });
  // Every e2e sign-in is in the trail; with fewer than a page of them there is nothing older to go to.
  if ((await older.count()) === 0) return;
  const first = await page.locator("[data-event-type]").first().innerText();
  await older.click();
  await expect(page).toHaveURL(/kind=sign_in\.&older=/);
  await expect(page.locator("[data-event-type]").first()).not.toHaveText(first);
  await page.getByRole("link", { name: /Newer events/ }).click();
  await expect(page).toHaveURL(/kind=sign_in\.&newer=/);
  await expect(page.locator("[data-event-type]").first()).toHaveText(first);
});
