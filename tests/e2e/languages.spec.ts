/**
 * Every language on a 360 px phone: the login, consent, application access and security pages are shown in it,
 * screenshotted into the test artifacts, and no element reaches past the viewport's edge.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { LANGUAGE_NAMES, LOCALES } from "../../lib/i18n/locales";
import { SCREENSHOTS_TAG } from "./screenshots";

const PHONE = { width: 360, height: 780 };
const SCREENSHOTS = "tests/artifacts/screenshots/languages";

const messagesOf = (locale: string) =>
  JSON.parse(readFileSync(path.join(import.meta.dirname, "../../messages", `${locale}.json`), "utf8"));

/**
 * The elements sticking out of the viewport, described for the failure message. What sits inside a scroll container
 * (a wide table in its own horizontal scroller) counts only through its container.
 */
function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (element: Element) =>
      ["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(element).overflowX);
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width)
      found.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px)`);
    for (const element of document.body.querySelectorAll("*")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      let ancestor = element.parentElement;
      while (ancestor && ancestor !== document.body && !scrolls(ancestor)) ancestor = ancestor.parentElement;
      if (ancestor && ancestor !== document.body) continue;
      if (box.left < -0.5 || box.right > width + 0.5) {
        const text = (element.textContent ?? "").trim().slice(0, 40);
        found.push(
          `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}"> ${Math.round(box.left)}–${Math.round(box.right)} px "${text}"`,
        );
      }
    }
    return found;
  });
}

async function shoot(page: Page, name: string, locale: string) {
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-${locale}-360.png`, fullPage: true });
  expect(await overflowingElements(page), `${name} in ${locale}`).toEqual([]);
}

test("the overflow check finds an element wider than the phone, but not a wide table in its scroller", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await page.setContent(`<body style="margin:0">
    <div style="overflow-x:auto"><table style="width:900px"><tr><td>wide but scrolled</td></tr></table></div>
    <p><span style="display:inline-block;width:420px">too wide</span></p></body>`);
  const found = await overflowingElements(page);
  expect(found.some((line) => line.startsWith("the page scrolls sideways"))).toBe(true);
  expect(found.filter((line) => line.startsWith("<span") && line.includes('"too wide"'))).toHaveLength(1);
  expect(found.filter((line) => line.includes("wide but scrolled"))).toEqual([]);
});

test("the language switch offers every language in its own name and keeps the page", async ({ page }) => {
  await page.goto("/password/forgot");
  await page.locator("header details > summary").click();
  const links = page.getByRole("navigation").last().getByRole("link");
  await expect(links).toHaveText(LOCALES.map((locale) => LANGUAGE_NAMES[locale]));
  for (const locale of LOCALES)
    await expect(links.filter({ hasText: LANGUAGE_NAMES[locale] })).toHaveAttribute("lang", locale);
  await page.keyboard.press("Escape");
  await expect(links.first()).toBeHidden();
  await page.locator("header details > summary").click();
  await links.filter({ hasText: "Polski" }).click();
  await expect(page).toHaveURL(/\/password\/forgot$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(messagesOf("pl").ForgotPassword.title);
});

for (const locale of LOCALES) {
  test(
    `${LANGUAGE_NAMES[locale]}: login, consent, application access and security at 360 px`,
    SCREENSHOTS_TAG,
    async ({ browser }) => {
      const text = messagesOf(locale);
      // A regional browser language chooses the language (fr-CH: French) until the person chooses another.
      const context = await browser.newContext({ locale: `${locale}-CH`, viewport: PHONE });
      const page = await context.newPage();
      const query = new URLSearchParams({
        client_id: "demo-web",
        redirect_uri: "http://localhost:4000/callback",
        response_type: "code",
        scope: "openid profile email offline_access platform.catalogs.read",
        state: "languages",
        prompt: "consent",
      });
      await page.goto(`/connect/authorize?${query}`);
      await expect(page.locator("button[type=submit]")).toHaveText(text.Login.submit);
      await shoot(page, "login", locale);

      await page.fill("input[name=username]", "optician@demo.test");

      await page.locator("button[type=submit]").click();
      await page.fill("input[name=password]", "Optician#2026");
      await page.locator("button[type=submit]").click();
      await expect(page).toHaveURL(/\/consent\?/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(text.Consent.title);
      await expect(page.getByText(text.Scopes.catalogs_read.name)).toBeVisible();
      await shoot(page, "consent", locale);

      await page.goto("/portal/applications");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(text.Portal.title);
      await shoot(page, "applications", locale);

      await page.goto("/portal/security");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(text.Security.title);
      // Dates are written the language's way (Intl): this sign-in began today, "26 nov. 2026" or "26 lis 2026".
      const today = new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(new Date());
      await expect(page.getByText(today).first()).toBeVisible();
      await shoot(page, "security", locale);
      await context.close();
    },
  );
}
