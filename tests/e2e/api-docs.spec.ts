/**
 * The developer documentation in the browser: the platform API's reference lists its operations and, with an access
 * token pasted in, tries GET /v2/catalogs; the management API's reference lists its own; the guide links to its
 * sections and to the references. Every request of these pages goes to OptiGate's own origin: the renderer, its
 * fonts and the tried requests included.
 */
import { expect, test, type Page } from "@playwright/test";

/** The origins of every request the page makes from now on. */
function recordOrigins(page: Page): Set<string> {
  const origins = new Set<string>();
  page.on("request", (request) => origins.add(new URL(request.url()).origin));
  return origins;
}

test.use({ locale: "en-GB" });

test("a pasted token tries GET /v2/catalogs from the platform API's reference, on this origin only", async ({
  page,
  baseURL,
}) => {
  const origins = recordOrigins(page);
  const tokenResponse = await page.request.post("/connect/token", {
    headers: { authorization: `Basic ${Buffer.from("demo-backend:demo-backend-secret").toString("base64")}` },
    form: { grant_type: "client_credentials", scope: "platform.catalogs.read" },
  });
  const { access_token: token } = await tokenResponse.json();

  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Platform API reference");
  await expect(page).toHaveTitle("Platform API reference – OptiGate");
  await expect(
    page.getByText("The published catalogs, in the order of supplier and catalog identifier").first(),
  ).toBeVisible();
  await expect(page.getByText("/v2/supplierregistrations/{id}").first()).toBeVisible();

  await page.getByPlaceholder("Token").first().fill(token);
  await page.getByRole("button", { name: "Test Request" }).filter({ hasText: "get /v2/catalogs" }).click();
  const tried = page.waitForResponse((response) => new URL(response.url()).pathname === "/v2/catalogs");
  await page.getByRole("button", { name: /^Send get request to/ }).click();
  const response = await tried;
  expect(response.status()).toBe(200);
  expect(response.request().headers().authorization).toBe(`Bearer ${token}`);
  await expect(page.getByText("200 OK")).toBeVisible();
  expect([...origins]).toEqual([new URL(baseURL!).origin]);
});

test("the management API's reference lists its operations; the guide links to its sections and the references", async ({
  page,
  baseURL,
}) => {
  const origins = recordOrigins(page);
  await page.goto("/docs/manage");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Management API reference");
  await expect(page.getByRole("heading", { name: "OptiGate management API" })).toBeVisible();
  await expect(page.getByRole("link", { name: "OpenAPI document (JSON)" })).toHaveAttribute(
    "href",
    "/manage/v1/openapi.json",
  );

  await page.getByRole("link", { name: "Guide for applications" }).click();
  await expect(page).toHaveURL(/\/docs\/relying-parties$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Signing in with OptiGate");
  await page.getByRole("link", { name: "Resource indicators (RFC 8707): a token for one API" }).click();
  await expect(page).toHaveURL(/#resource-indicators-rfc-8707-a-token-for-one-api$/);
  await expect(page.locator("#resource-indicators-rfc-8707-a-token-for-one-api")).toBeInViewport();
  await expect(page.getByRole("link", { name: "the management API" })).toHaveAttribute("href", "/docs/manage");
  const hrefs = await page.locator("article a").evaluateAll((links) => links.map((link) => link.getAttribute("href")));
  expect(hrefs.filter((href) => !/^(#|https:\/\/|\/docs\/)/.test(href ?? "") || /\.md\b/.test(href ?? ""))).toEqual([]);
  expect([...origins]).toEqual([new URL(baseURL!).origin]);
});
