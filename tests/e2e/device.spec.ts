/**
 * A device signs in with the device authorization grant (RFC 8628): openid-client plays the device, Chromium the
 * person at /device, who signs in, enters the code (or comes with it in verification_uri_complete) and allows or
 * denies; the device's poll then gets the tokens or access_denied. The page is checked with axe and, in every
 * language, at 360 px.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import * as oidc from "openid-client";
import { LOCALES } from "../../lib/i18n/locales";
import { violations } from "./axe";

const SCOPE = "openid profile offline_access platform.catalogs.read";
const PHONE = { width: 360, height: 780 };
const insecure = { execute: [oidc.allowInsecureRequests] };

const messagesOf = (locale: string) =>
  JSON.parse(readFileSync(path.join(import.meta.dirname, "../../messages", `${locale}.json`), "utf8"));

async function asDevice(baseURL: string) {
  const config = await oidc.discovery(new URL(baseURL), "demo-device", undefined, oidc.None(), insecure);
  return { config, device: await oidc.initiateDeviceAuthorization(config, { scope: SCOPE }) };
}

/** The login page the person was sent to: the optician signs in and comes back to /device. */
async function signIn(page: Page) {
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fdevice/);
  await page.fill("input[name=username]", "optician@demo.test");
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", "Optician#2026");
  await page.locator("button[type=submit]").click();
  await expect(page).toHaveURL(/\/device(\?|$)/);
}

test("a device signs in: the person enters its code at /device and allows, and the poll yields tokens", async ({
  page,
  baseURL,
}) => {
  const { config, device } = await asDevice(baseURL!);
  const polling = oidc.pollDeviceAuthorizationGrant(config, device);
  await page.goto("/device");
  await signIn(page);
  await expect(page.locator("button[type=submit]")).toHaveCount(1);
  await page.fill("input[name=user_code]", device.user_code.toLowerCase().replace("-", " "));
  await page.locator("button[type=submit]").click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Allow this device?");
  await expect(page.getByText("A device with Demo edger asks to sign in as you.")).toBeVisible();
  await expect(page.getByRole("note")).toContainText("Only allow this if the device is in front of you");
  await expect(page.locator("input[type=checkbox][name=scope][value='platform.catalogs.read']")).toBeChecked();
  expect(await violations(page)).toEqual([]);
  await page.locator("button[name=decision][value=allow]").click();
  await expect(page.getByRole("status")).toHaveText("The device is now signed in as you. You can go back to it.");

  const tokens = await polling;
  expect(tokens.claims()).toMatchObject({ aud: "demo-device", given_name: "Olivia", acr: "urn:optigate:acr:password" });
  expect(tokens.refresh_token).toEqual(expect.any(String));
  await page.goto("/portal/applications");
  await expect(page.locator("[data-client-id=demo-device]")).toContainText("Demo edger");
});

test("the link with the code fills it in; a denial makes the device's poll fail with access_denied", async ({
  page,
  baseURL,
}) => {
  const { config, device } = await asDevice(baseURL!);
  const polling = oidc.pollDeviceAuthorizationGrant(config, device).catch((error: unknown) => error);
  await page.goto(device.verification_uri_complete!);
  await signIn(page);
  await expect(page.locator("input[name=user_code]")).toHaveValue(device.user_code);
  await page.locator("button[type=submit]").click();
  await page.locator("button[name=decision][value=deny]").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Request denied");
  expect(await polling).toMatchObject({ error: "access_denied" });
});

test("a wrong code is refused with the code kept in the field", async ({ page }) => {
  await page.goto("/device");
  await signIn(page);
  await page.fill("input[name=user_code]", "BCDF-GHJK");
  await page.locator("button[type=submit]").click();
  await expect(page.locator("p[role=alert]")).toHaveText(
    "This code is not right. Please check the code your device shows.",
  );
  await expect(page.locator("input[name=user_code]")).toHaveValue("BCDF-GHJK");
  await expect(page.locator("input[name=user_code]")).toHaveAttribute("aria-invalid", "true");
});

test("every language at 360 px: the code and the confirmation fit the phone, in the person's language", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(30_000 + LOCALES.length * 10_000);
  // One request for all: entering its code does not use it up, and each session gets its own confirmation.
  const { device } = await asDevice(baseURL!);
  const found: Record<string, string[]> = {};
  for (const locale of LOCALES) {
    const text = messagesOf(locale).Device;
    const context = await browser.newContext({ locale: `${locale}-CH`, viewport: PHONE });
    const page = await context.newPage();
    await page.goto("/device");
    await signIn(page);
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(text.title);
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    if ((await sideways()) > PHONE.width) (found[locale] ??= []).push(`code entry is ${await sideways()} px wide`);
    await page.fill("input[name=user_code]", device.user_code);
    await page.locator("button[type=submit]").click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(text.confirmTitle);
    if ((await sideways()) > PHONE.width) (found[locale] ??= []).push(`confirmation is ${await sideways()} px wide`);
    const problems = await violations(page);
    if (problems.length > 0) (found[locale] ??= []).push(...problems);
    await context.close();
  }
  expect(found).toEqual({});
});
