/**
 * The platform API as a relying party's software calls it, through the deployed server (the lean front): tokens from
 * openid-client (client credentials for a backend, the authorization code flow for the optician through Chromium),
 * the catalog list and article pages as JSON, the sub-catalog as streamed XML, registrations, and the problem
 * bodies of bad requests (a body over 64 KB included).
 */
import { expect, test } from "@playwright/test";
import * as oidc from "openid-client";
import { redirectToClient } from "./client-redirect";

const insecure = { execute: [oidc.allowInsecureRequests] };

test("a backend reads catalogs and articles with a client credentials token; bad requests get problem bodies", async ({
  request,
  baseURL,
}) => {
  const backend = await oidc.discovery(
    new URL(baseURL!),
    "demo-backend",
    undefined,
    oidc.ClientSecretBasic("demo-backend-secret"),
    insecure,
  );
  const { access_token: token } = await oidc.clientCredentialsGrant(backend, { scope: "platform.catalogs.read" });
  const bearer = { authorization: `Bearer ${token}` };

  const list = await request.get("/v2/catalogs?validCountry=DE&limit=1", { headers: bearer });
  expect(list.status()).toBe(200);
  const first = await list.json();
  expect(first.items).toHaveLength(1);
  const second = await (
    await request.get(`/v2/catalogs?validCountry=DE&limit=1&cursor=${encodeURIComponent(first.next)}`, {
      headers: bearer,
    })
  ).json();
  expect(second.items[0].resourceKey).not.toBe(first.items[0].resourceKey);

  const pages = await (
    await request.get("/v2/catalogs/DLAG/catalog.xml/revisions/2/articles?limit=2", { headers: bearer })
  ).json();
  expect(pages.items).toHaveLength(2);
  expect(pages.items.every((article: { purchasePrice: number }) => article.purchasePrice === 0)).toBe(true);
  const xml = await request.get("/v2/catalogs/DLAG/catalog.xml/revisions/2/articles", {
    headers: { ...bearer, accept: "application/xml" },
  });
  expect(xml.headers()["content-type"]).toBe("application/xml; charset=utf-8");
  expect(xml.headers()["transfer-encoding"]).toBe("chunked");
  expect(await xml.text()).toMatch(/^<\?xml[^>]+>\n<SubCatalog [^>]*>\n<Article /);

  const anonymous = await request.get("/v2/catalogs");
  expect(anonymous.status()).toBe(401);
  expect(anonymous.headers()["www-authenticate"]).toMatch(/^Bearer realm="OptiGate", error="invalid_token"/);
  expect(anonymous.headers()["content-type"]).toBe("application/problem+json");
  const registrations = await request.get("/v2/supplierregistrations", { headers: bearer });
  expect(registrations.status()).toBe(403);
  expect(registrations.headers()["www-authenticate"]).toContain('error="insufficient_scope"');
  const big = await request.post("/v2/supplierregistrations", {
    headers: { ...bearer, "content-type": "application/json" },
    data: JSON.stringify({ pad: "x".repeat(70 * 1024) }),
  });
  // The lean front reads a body before it routes (413); route handlers alone check the scope first (403).
  const refusal =
    process.env.E2E_SERVER === "next"
      ? { type: "urn:optigate:problem:insufficient-scope", status: 403 }
      : { type: "urn:optigate:problem:payload-too-large", status: 413 };
  expect(big.status()).toBe(refusal.status);
  expect(await big.json()).toMatchObject(refusal);
  const openapi = await request.get("/v2/openapi.json");
  expect((await openapi.json()).openapi).toBe("3.1.0");
});

test("the optician's software requests a registration with a token from the code flow", async ({
  page,
  request,
  baseURL,
}) => {
  const web = await oidc.discovery(
    new URL(baseURL!),
    "demo-web",
    undefined,
    oidc.ClientSecretBasic("demo-web-secret"),
    insecure,
  );
  const state = oidc.randomState();
  const scope = "openid platform.catalogs.read platform.supplierreg.readwrite";
  await page.goto(
    oidc.buildAuthorizationUrl(web, { redirect_uri: "http://localhost:4000/callback", scope, state }).href,
  );
  await page.fill("input[name=username]", "optician@demo.test");
  await page.locator("button[type=submit]").click();
  await page.fill("input[name=password]", "Optician#2026");
  await page.locator("button[type=submit]").click();
  const callback = await redirectToClient(page, "http://localhost:4000", () =>
    page.locator("button[name=decision][value=allow]").click(),
  );
  const tokens = await oidc.authorizationCodeGrant(web, callback, { expectedState: state });
  const bearer = { authorization: `Bearer ${tokens.access_token}` };

  const catalogs = await (await request.get("/v2/catalogs?supplierId=DLAG", { headers: bearer })).json();
  expect(catalogs.items[0].registration).toEqual({ clientId: "100234", subscriptionStatus: "Subscribed" });
  const duplicate = await request.post("/v2/supplierregistrations", {
    headers: bearer,
    data: { supplierId: "DLAG", clientId: "100234" },
  });
  expect(duplicate.status()).toBe(409);
  const mine = await (await request.get("/v2/supplierregistrations?status=active", { headers: bearer })).json();
  const one = await request.get(`/v2/supplierregistrations/${mine.items[0].id}`, { headers: bearer });
  expect(one.headers()["etag"]).toMatch(/^"v\d+"$/);
  const unconditional = await request.patch(`/v2/supplierregistrations/${mine.items[0].id}`, {
    headers: bearer,
    data: { status: "withdrawn" },
  });
  expect(unconditional.status()).toBe(428);
});
