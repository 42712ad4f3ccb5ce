/**
 * A company's people reach that company's administrators and operators only. Reads the raw HTML and RSC payload of
 * the company pages as a visitor, a user who is no administrator, a supplier's user, the administrator of another
 * company and the operator, and looks for the optician's people there; the optician's own administrator sees them,
 * so the check can fail. The same for the company's own sign-in settings, whose client secret nobody sees.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { adminCommand } from "./admin-command";
import { joinByInvitation, rawBody, signedInContext, VARIANTS } from "./raw-pages";

const OPTICIAN_PEOPLE = ["colleague@demo.test", "optician@demo.test"];
const PAGES = ["/portal/company", "/admin/companies/demo-company-optician", "/admin/outbox", "/invitation?token=x"];

/** An administrator of Demo Lens, invited through the CLI and joined through the invitation page. */
async function lensAdministrator(baseURL: string): Promise<readonly [string, string]> {
  const email = `boss-${Date.now()}@lens.test`;
  const printed = adminCommand(baseURL, "users", "invite", email, "--company", "demo-company-lens", "--role", "admin");
  const password = "kontaktlinsen pflege abendrot";
  await joinByInvitation(baseURL, JSON.parse(printed).invitation_url, {
    givenName: "Boss",
    familyName: "Lens",
    password,
  });
  return [email, password];
}

test("a company's people reach its administrators and operators only, in the HTML and the RSC payload", async ({
  baseURL,
}) => {
  test.setTimeout(120_000);
  const lensAdmin = await lensAdministrator(baseURL!);
  const roles: Record<string, readonly [string, string] | undefined> = {
    visitor: undefined,
    "user, no administrator": ["developer@demo.test", "Developer#2026"],
    "supplier user": ["frames@demo.test", "Frames#2026"],
    "administrator of another company": lensAdmin,
    operator: ["admin@demo.test", "Admin#2026"],
  };
  for (const [role, credentials] of Object.entries(roles)) {
    const context = await signedInContext(baseURL!, credentials);
    for (const path of PAGES) {
      if (role === "operator" && path !== "/portal/company" && path !== "/invitation?token=x") continue;
      for (const [variant, headers] of Object.entries(VARIANTS)) {
        const { status, body } = await rawBody(context, path, headers);
        const where = `${role} ${variant} ${path}`;
        expect([200, 307, 403], where).toContain(status);
        for (const marker of OPTICIAN_PEOPLE) expect(body.includes(marker), `${where} contains ${marker}`).toBe(false);
      }
    }
    await context.dispose();
  }

  // The other company's administrator sees their own people; the optician's administrator sees hers.
  const lens = await signedInContext(baseURL!, lensAdmin);
  const optician = await signedInContext(baseURL!, ["optician@demo.test", "Optician#2026"]);
  for (const [variant, headers] of Object.entries(VARIANTS)) {
    expect((await rawBody(lens, "/portal/company", headers)).body, variant).toContain(lensAdmin[0]);
    const own = await rawBody(optician, "/portal/company", headers);
    expect(own.status, variant).toBe(200);
    for (const marker of OPTICIAN_PEOPLE) expect(own.body, variant).toContain(marker);
  }
  // Naming another company in the form is refused at the form, not carried out.
  const page = await (await lens.get("/portal/company")).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)![1];
  const refused = await lens.post("/interaction/company", {
    form: { csrf_token: csrf, action: "deactivate", email: "optician@demo.test", company_id: "demo-company-optician" },
    maxRedirects: 0,
  });
  expect(refused.headers()["location"]).toBe("/portal/company#people-form");
  const after = await (await optician.get("/portal/company")).text();
  expect(/data-email="optician@demo.test"[^]*?<\/tr>/.exec(after)?.[0]).toContain(">Active<");
  await lens.dispose();
  await optician.dispose();
});

test("a company's own sign-in settings reach its administrators only, and its secret nobody", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const issuer = "https://idp.optician-marker.example";
  const settings = path.join(mkdtempSync(path.join(tmpdir(), "optigate-sso-")), "sso.json");
  const secret = "optician-marker-secret";
  writeFileSync(settings, JSON.stringify({ issuer, client_id: "optician-marker-client", client_secret: secret }));
  adminCommand(baseURL!, "companies", "sso", "set", "demo-company-optician", settings);
  try {
    const markers = [issuer, "optician-marker-client", secret];
    const roles: Record<string, readonly [string, string] | undefined> = {
      visitor: undefined,
      "user, no administrator": ["developer@demo.test", "Developer#2026"],
      "supplier user": ["supplier@demo.test", "Supplier#2026"],
      "administrator of another company": await lensAdministrator(baseURL!),
      operator: ["admin@demo.test", "Admin#2026"],
    };
    for (const [role, credentials] of Object.entries(roles)) {
      const context = await signedInContext(baseURL!, credentials);
      for (const [variant, headers] of Object.entries(VARIANTS)) {
        const { body } = await rawBody(context, "/portal/company", headers);
        for (const marker of markers) expect(body.includes(marker), `${role} ${variant} sees ${marker}`).toBe(false);
      }
      await context.dispose();
    }
    const optician = await signedInContext(baseURL!, ["optician@demo.test", "Optician#2026"]);
    for (const [variant, headers] of Object.entries(VARIANTS)) {
      const { status, body } = await rawBody(optician, "/portal/company", headers);
      expect(status, variant).toBe(200);
      expect(body, variant).toContain(issuer);
      expect(body, variant).toContain("optician-marker-client");
      expect(body.includes(secret), `the administrator's ${variant} holds the secret`).toBe(false);
    }
    await optician.dispose();
  } finally {
    adminCommand(baseURL!, "companies", "sso", "remove", "demo-company-optician");
  }
});
