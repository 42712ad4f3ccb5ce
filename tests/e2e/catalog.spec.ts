/** The catalog web services against the real server, as optician software calls them. */
import { expect, test } from "@playwright/test";

test("the demo optician gets a ticket, lists the registered catalog and downloads it personalized", async ({
  request,
}) => {
  const login = await request.post("/services/login/SilentLogin", {
    form: { username: "optician@demo.test", password: "Optician#2026" },
  });
  expect(login.status()).toBe(200);
  const { ticket } = await login.json();

  const list = await request.get(`/getCatalogInfos.ashx?ticket=${ticket}&webServices`);
  expect(list.headers()["content-type"]).toBe("text/xml; charset=utf-8");
  const xml = await list.text();
  expect(xml).toContain('clientID="100234"');
  expect(xml).toContain("<SubscriptionStatus>Subscribed</SubscriptionStatus>");
  expect(xml).toContain('webServiceType="PlaceOrder"');
  const revision = /<RevisionNumber>(\d+)<\/RevisionNumber>/.exec(xml)![1];
  const resourceKey = /<ResourceKey>([^<]+)<\/ResourceKey>/.exec(xml)![1];

  const download = await request.get(
    `/getSubCatalog.ashx?${new URLSearchParams({ ticket, companyID: "demo-company-lens", catalogResourceKey: resourceKey, revision })}`,
  );
  expect(download.status()).toBe(200);
  const catalog = await download.text();
  expect(catalog).toContain("<Name>Augenoptik Demo Premium 1.6</Name>");
  expect(catalog).toContain('articleNumber="PR-160"');
});

test("an anonymous caller lists all catalogs and downloads the German standard catalog without prices", async ({
  request,
}) => {
  const list = await (await request.get("/getCatalogInfos.ashx")).text();
  expect(list).toContain("<CatalogID>catalog_AT.xml</CatalogID>");
  expect(list).not.toContain("clientID=");
  const download = await request.get(
    "/getSubCatalog.ashx?companyID=demo-company-lens&catalogResourceKey=catalog.xml&revision=2",
  );
  const catalog = await download.text();
  expect(catalog).not.toContain('customerGroup="5"');
  expect(catalog).toContain("<Name>Premium-Glas 1.6</Name>");
  expect([...catalog.matchAll(/<PurchasePrice>([^<]+)<\/PurchasePrice>/g)].every((m) => m[1] === "0.00")).toBe(true);
  const refused = await request.get(
    "/getSubCatalog.ashx?companyID=demo-company-lens&catalogResourceKey=DLAG-AT&revision=1",
  );
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toMatch(/ticket is required/);
});
