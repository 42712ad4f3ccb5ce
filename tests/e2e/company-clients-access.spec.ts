/**
 * A company's own API clients (issue 48) reach its administrators only: the optician's administrator creates one on
 * /portal/company and sees its secret once; the raw HTML and RSC payload of the company pages, read as a visitor, a
 * user of the same company who is no administrator, another company's administrator and the operator, hold neither
 * the client's id, its name nor its secret. The administrator's own page holds the first two, so the check can fail.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { adminCommand } from "./admin-command";
import { joinByInvitation, rawBody, signedInContext, VARIANTS } from "./raw-pages";

const NAME = "ERP marker 48";
const PAGES = ["/portal/company", "/admin/companies/demo-company-optician", "/admin/clients"];

/** A person invited through the CLI into a company with a role, joined through the invitation page. */
async function invited(baseURL: string, company: string, role: string): Promise<readonly [string, string]> {
  const email = `${role}-${Date.now()}@${company}.test`;
  const printed = adminCommand(baseURL, "users", "invite", email, "--company", company, "--role", role);
  const password = "kontaktlinsen pflege abendrot";
  await joinByInvitation(baseURL, JSON.parse(printed).invitation_url, {
    givenName: "Test",
    familyName: "Person",
    password,
  });
  return [email, password];
}

/** Posts one of the API client forms of the company page, as the page's own form would. */
async function postClientForm(context: APIRequestContext, fields: [string, string][]) {
  const page = await (await context.get("/portal/company")).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)![1];
  return context.post("/interaction/company/clients", {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    data: new URLSearchParams([["csrf_token", csrf], ...fields]).toString(),
    maxRedirects: 0,
  });
}

test("a company's API clients reach its administrators only, and their secret is shown once", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const optician = await signedInContext(baseURL!, ["optician@demo.test", "Optician#2026"]);
  const created = await postClientForm(optician, [
    ["action", "create"],
    ["name", NAME],
    ["scope", "manage.company.users.read"],
    ["scope", "manage.company.sso.read"],
  ]);
  expect(created.headers()["location"]).toBe("/portal/company#api-clients");
  const first = await (await optician.get("/portal/company")).text();
  const clientId = /data-api-client="([^"]+)"/.exec(first)![1];
  const secret = /data-new-secret[^>]*>([^<]+)</.exec(first)![1];
  expect(secret.length).toBeGreaterThan(30);
  try {
    for (const [variant, headers] of Object.entries(VARIANTS)) {
      const { status, body } = await rawBody(optician, "/portal/company", headers);
      expect(status, variant).toBe(200);
      expect(body, variant).toContain(clientId);
      expect(body, variant).toContain(NAME);
      expect(body.includes(secret), `the ${variant} after the first view holds the secret`).toBe(false);
    }
    const roles: Record<string, readonly [string, string] | undefined> = {
      visitor: undefined,
      "user of the company, no administrator": await invited(baseURL!, "demo-company-optician", "user"),
      "administrator of another company": await invited(baseURL!, "demo-company-lens", "admin"),
      operator: ["admin@demo.test", "Admin#2026"],
    };
    for (const [role, credentials] of Object.entries(roles)) {
      const context = await signedInContext(baseURL!, credentials);
      for (const path of PAGES) {
        // The operator's client list names every client: theirs to see.
        if (role === "operator" && path === "/admin/clients") continue;
        for (const [variant, headers] of Object.entries(VARIANTS)) {
          const { status, body } = await rawBody(context, path, headers);
          const where = `${role} ${variant} ${path}`;
          expect([200, 307, 403, 404], where).toContain(status);
          for (const marker of [clientId, NAME, secret])
            expect(body.includes(marker), `${where} contains ${marker}`).toBe(false);
        }
      }
      await context.dispose();
    }
  } finally {
    await postClientForm(optician, [
      ["action", "remove"],
      ["client_id", clientId],
    ]);
    await optician.dispose();
  }
});
