/**
 * The operator pages' data reaches operators only. Next.js renders a layout and its page in parallel and streams the
 * page's data in the RSC payload even when the layout answers with a redirect or a 403, so this reads the raw
 * response bodies (HTML and RSC payload) of every operator page as anonymous, optician and supplier, and looks for
 * the data an operator sees there. The same requests as an operator show that data, so the check can fail.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { rawBody, signedInContext, VARIANTS } from "./raw-pages";
import { PARTNER, trustPartner } from "./trusted-partner";

const USERS = {
  optician: ["optician@demo.test", "Optician#2026"],
  supplier: ["supplier@demo.test", "Supplier#2026"],
  operator: ["admin@demo.test", "Admin#2026"],
} as const;

const PAGES = [
  "/admin/clients",
  "/admin/clients/demo-web",
  "/admin/clients?kind=backend",
  "/admin/audit",
  "/admin/audit?actor=optician@demo.test",
  "/admin/audit?actor=nobody@demo.test",
  "/admin/federation",
  "/admin/companies",
  "/admin/companies/demo-company-optician",
  "/admin/outbox",
  "/admin",
];
const signedIn = (baseURL: string, role: keyof typeof USERS | "anonymous"): Promise<APIRequestContext> =>
  signedInContext(baseURL, role === "anonymous" ? undefined : USERS[role]);

/** What only an operator may see: client ids, redirect URIs, secret ids, audit rows and the audit search's verdict. */
async function operatorData(baseURL: string): Promise<string[]> {
  const operator = await signedIn(baseURL, "operator");
  const clientPage = (await rawBody(operator, "/admin/clients/demo-web", {})).body;
  const secretIds = [...clientPage.matchAll(/data-secret-id="([^"]+)"/g)].map((match) => match[1]);
  expect(secretIds.length).toBeGreaterThan(0);
  await operator.dispose();
  return [
    "demo-backend",
    "demo-implicit",
    "localhost:4000/callback",
    "client_secret_basic",
    ...secretIds,
    "sign_in.succeeded",
    "data-event-type",
    "No events",
    PARTNER,
    "demo-company-vendor",
    "colleague@demo.test",
  ];
}

test("operator pages send their data to operators only, in the HTML and in the RSC payload", async ({ baseURL }) => {
  test.setTimeout(120_000); // every page, twice, for three roles: more than the default on a busy machine
  trustPartner();
  const markers = await operatorData(baseURL!);

  for (const role of ["anonymous", "optician", "supplier"] as const) {
    const context = await signedIn(baseURL!, role);
    for (const path of PAGES) {
      for (const [variant, headers] of Object.entries(VARIANTS)) {
        const { status, body } = await rawBody(context, path, headers);
        const where = `${role} ${variant} ${path}`;
        expect([200, 307, 403], where).toContain(status);
        for (const marker of markers) expect(body.includes(marker), `${where} contains ${marker}`).toBe(false);
      }
    }
    await context.dispose();
  }

  // Visitors go to the login page, which brings them back to the page they asked for.
  const visitor = await signedIn(baseURL!, "anonymous");
  for (const path of [
    "/admin/clients",
    "/admin/clients/demo-web",
    "/admin/audit",
    "/admin/federation",
    "/admin/companies",
    "/admin/outbox",
  ]) {
    const response = await visitor.get(path, { maxRedirects: 0 });
    const login = new URL(response.headers()["location"] ?? "", baseURL);
    expect([login.pathname, login.searchParams.get("returnUrl")], path).toEqual(["/login", path]);
  }
  await visitor.dispose();

  // The same requests as an operator carry the data looked for above (the optician has signed in by now).
  const operator = await signedIn(baseURL!, "operator");
  for (const [variant, headers] of Object.entries(VARIANTS)) {
    const clients = await rawBody(operator, "/admin/clients", headers);
    expect(clients.status, variant).toBe(200);
    expect(clients.body, variant).toContain("demo-backend");
    expect((await rawBody(operator, "/admin/audit?actor=optician@demo.test", headers)).body, variant).toContain(
      "sign_in.succeeded",
    );
    expect((await rawBody(operator, "/admin/audit?actor=nobody@demo.test", headers)).body, variant).toContain(
      "No events",
    );
    expect((await rawBody(operator, "/admin/federation", headers)).body, variant).toContain(PARTNER);
    expect((await rawBody(operator, "/admin/companies", headers)).body, variant).toContain("demo-company-vendor");
    for (const path of ["/admin/companies/demo-company-optician", "/admin/outbox"])
      expect((await rawBody(operator, path, headers)).body, `${variant} ${path}`).toContain("colleague@demo.test");
  }
  await operator.dispose();
});
