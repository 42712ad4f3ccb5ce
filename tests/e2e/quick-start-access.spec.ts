/**
 * An application's quick start (/portal/developer/<client>) reaches its vendor's administrators and developers only.
 * Reads the raw HTML and RSC payload of the demo vendor's pending application's quick start as a visitor (sent to
 * sign in), an optician's administrator and the operator (refused), and the developer of another vendor (not found),
 * and looks for what only the demo vendor's people may see of it; the demo vendor's developer sees it there, and
 * reaches it from the application's name on /portal/developer, so the check can fail. The client id itself is in
 * the address, which Next.js repeats in the payload: the markers are the application's name and redirect host.
 */
import { expect, test } from "@playwright/test";
import { newVendorDeveloper } from "./vendor-developer";
import { rawBody, signedInContext, VARIANTS } from "./raw-pages";

const QUICK_START = "/portal/developer/praxissoft-termine";
const MARKERS = ["Praxissoft Appointments", "termine.praxissoft.example"];

test("an application's quick start reaches its own vendor's developers only, in the HTML and the RSC payload", async ({
  baseURL,
}) => {
  test.setTimeout(120_000);
  const roles: Record<string, { credentials?: readonly [string, string]; status: number }> = {
    visitor: { status: 307 },
    "optician's administrator": { credentials: ["optician@demo.test", "Optician#2026"], status: 403 },
    operator: { credentials: ["admin@demo.test", "Admin#2026"], status: 403 },
    "developer of another vendor": {
      credentials: (
        await newVendorDeveloper(baseURL!, {
          name: "Quick Start Vendor",
          developer: { givenName: "Quinn", familyName: "Start" },
        })
      ).credentials,
      status: 404,
    },
  };
  for (const [role, { credentials, status: expected }] of Object.entries(roles)) {
    const context = await signedInContext(baseURL!, credentials);
    for (const [variant, headers] of Object.entries(VARIANTS)) {
      const { status, body } = await rawBody(context, QUICK_START, headers);
      const where = `${role} ${variant}`;
      // An RSC request may get its redirect or refusal inside a 200 payload, as the Next.js router takes it.
      expect(variant === "html" ? [expected] : [expected, 200], where).toContain(status);
      for (const marker of MARKERS) expect(body.includes(marker), `${where} shows ${marker}`).toBe(false);
      expect(body.includes("OPTIGATE_CLIENT_ID"), `${where} shows the snippets`).toBe(false);
    }
    await context.dispose();
  }

  const own = await signedInContext(baseURL!, ["developer@demo.test", "Developer#2026"]);
  const list = await rawBody(own, "/portal/developer", {});
  expect(list.body).toContain(`href="${QUICK_START}"`);
  for (const [variant, headers] of Object.entries(VARIANTS)) {
    const { status, body } = await rawBody(own, QUICK_START, headers);
    expect(status, variant).toBe(200);
    for (const marker of [...MARKERS, "OPTIGATE_CLIENT_ID=praxissoft-termine"]) expect(body, variant).toContain(marker);
  }
  await own.dispose();
});
