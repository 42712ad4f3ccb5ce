/**
 * The operator pages' data reaches operators only. Next.js renders a layout and its page in parallel and streams the
 * page's data in the RSC payload even when the layout answers with a redirect or a 403, so this reads the raw
 * response bodies (HTML and RSC payload) of every operator page as anonymous, optician and supplier, and looks for
 * the data an operator sees there. The same requests as an operator show that data, so the check can fail.
 */
import { expect, request as newRequestContext, test, type APIRequestContext } from "@playwright/test";
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
  "/admin/audit?user=optician@demo.test",
  "/admin/audit?user=nobody@demo.test",
  "/admin/federation",
  "/admin",
];
const VARIANTS: Record<string, Record<string, string>> = { html: {}, rsc: { RSC: "1" } };

async function signedIn(baseURL: string, role: keyof typeof USERS | "anonymous"): Promise<APIRequestContext> {
  const context = await newRequestContext.newContext({ baseURL });
  if (role === "anonymous") return context;
  const loginPage = await (await context.get("/login")).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(loginPage)![1];
  const [username, password] = USERS[role];
  const response = await context.post("/interaction/login", {
    form: { csrf_token: csrf, returnUrl: "/", username, password },
    maxRedirects: 0,
  });
  expect(response.headers()["location"]).toBe("/");
  return context;
}

/** The raw answer; an RSC request is first sent on to its cache-busting `_rsc` URL, as the Next.js router does. */
async function rawBody(
  context: APIRequestContext,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  let response = await context.get(path, { headers, maxRedirects: 0 });
  const location = response.headers()["location"] ?? "";
  if (headers.RSC && response.status() === 307 && new URL(location, "http://x").searchParams.has("_rsc"))
    response = await context.get(location, { headers, maxRedirects: 0 });
  return { status: response.status(), body: await response.text() };
}

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
  for (const path of ["/admin/clients", "/admin/clients/demo-web", "/admin/audit", "/admin/federation"]) {
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
    expect((await rawBody(operator, "/admin/audit?user=optician@demo.test", headers)).body, variant).toContain(
      "sign_in.succeeded",
    );
    expect((await rawBody(operator, "/admin/audit?user=nobody@demo.test", headers)).body, variant).toContain(
      "No events",
    );
    expect((await rawBody(operator, "/admin/federation", headers)).body, variant).toContain(PARTNER);
  }
  await operator.dispose();
});
