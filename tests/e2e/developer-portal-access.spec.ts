/**
 * A software vendor's applications reach its own administrators and developers only (CONTRACT §12). Reads the raw
 * HTML and RSC payload of /portal/developer as a visitor, an optician's user, the developer of another vendor and the
 * operator, and looks for the demo vendor's pending application there; the demo vendor's developer sees it, so the
 * check can fail.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { joinByInvitation, rawBody, signedInContext, VARIANTS } from "./raw-pages";

const DEMO_APPLICATION = "praxissoft-termine";

function admin(baseURL: string, ...args: string[]): string {
  return String(
    execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
      env: {
        ...process.env,
        DATABASE_URL: process.env.E2E_DATABASE_URL,
        SECRET_KEY: process.env.E2E_SECRET_KEY,
        PUBLIC_URL: baseURL,
      },
      stdio: ["ignore", "pipe", "ignore"],
    }),
  );
}

/** A developer of another software vendor, invited through the CLI and joined through the invitation page. */
async function otherVendorDeveloper(baseURL: string): Promise<readonly [string, string]> {
  const stamp = Date.now();
  const file = path.join(mkdtempSync(path.join(tmpdir(), "optigate-vendor-")), "vendor.json");
  writeFileSync(
    file,
    JSON.stringify({ id: `vendor-${stamp}`, name: "Other Vendor GmbH", kind: "software_vendor", country: "DE" }),
  );
  admin(baseURL, "companies", "add", file);
  const email = `dev-${stamp}@other-vendor.test`;
  const printed = admin(baseURL, "users", "invite", email, "--company", `vendor-${stamp}`, "--role", "developer");
  const password = "werkbank quelltext leuchtturm";
  await joinByInvitation(baseURL, JSON.parse(printed).invitation_url, {
    givenName: "Dora",
    familyName: "Dev",
    password,
  });
  return [email, password];
}

test("a vendor's applications reach its own developers only, in the HTML and the RSC payload", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const roles: Record<string, readonly [string, string] | undefined> = {
    visitor: undefined,
    "optician's administrator": ["optician@demo.test", "Optician#2026"],
    "developer of another vendor": await otherVendorDeveloper(baseURL!),
    operator: ["admin@demo.test", "Admin#2026"],
  };
  for (const [role, credentials] of Object.entries(roles)) {
    const context = await signedInContext(baseURL!, credentials);
    for (const [variant, headers] of Object.entries(VARIANTS)) {
      const { status, body } = await rawBody(context, "/portal/developer", headers);
      const where = `${role} ${variant}`;
      expect([200, 307, 403], where).toContain(status);
      if (role === "developer of another vendor") expect(status, where).toBe(200);
      expect(body.includes(DEMO_APPLICATION), `${where} shows ${DEMO_APPLICATION}`).toBe(false);
    }
    await context.dispose();
  }
  const own = await signedInContext(baseURL!, ["developer@demo.test", "Developer#2026"]);
  for (const [variant, headers] of Object.entries(VARIANTS)) {
    const { status, body } = await rawBody(own, "/portal/developer", headers);
    expect(status, variant).toBe(200);
    expect(body, variant).toContain(DEMO_APPLICATION);
  }
  await own.dispose();
});
