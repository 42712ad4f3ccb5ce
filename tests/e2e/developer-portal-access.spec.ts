/**
 * A software vendor's applications reach its own administrators and developers only. Reads the raw
 * HTML and RSC payload of /portal/developer (the list, each kind's form, another vendor's application named in the
 * change and removal steps) and the answers of its form route as a visitor, an optician's user, the developer of
 * another vendor and the operator, and looks for the demo vendor's pending application there; the demo vendor's
 * developer sees it, so the check can fail. Nothing of the application changes meanwhile.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { adminCommand } from "./admin-command";
import { newVendorDeveloper } from "./vendor-developer";
import { rawBody, signedInContext, VARIANTS } from "./raw-pages";

const DEMO_APPLICATION = "praxissoft-termine";

/** What only the demo vendor's people may see of its pending application: its name and its redirect host. */
const MARKERS = ["Praxissoft Appointments", "termine.praxissoft.example"];
const PAGES = [
  "/portal/developer",
  "/portal/developer?kind=web",
  "/portal/developer?kind=backend",
  `/portal/developer?edit=${DEMO_APPLICATION}`,
  `/portal/developer?edit=${DEMO_APPLICATION}&remove=1`,
];

/** The form route, sent as the page would, with the page's CSRF token where the role gets the page. */
async function formAttempt(context: APIRequestContext, form: Record<string, string>) {
  const page = await (await context.get("/portal/developer", { maxRedirects: 0 })).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)?.[1] ?? "none";
  const response = await context.post("/interaction/developer", {
    form: { csrf_token: csrf, ...form },
    maxRedirects: 0,
  });
  return { status: response.status(), body: await response.text(), location: response.headers()["location"] ?? "" };
}

test("a vendor's applications reach its own developers only, in the HTML, the RSC payload and the forms", async ({
  baseURL,
}) => {
  test.setTimeout(120_000);
  const roles: Record<string, readonly [string, string] | undefined> = {
    visitor: undefined,
    "optician's administrator": ["optician@demo.test", "Optician#2026"],
    "developer of another vendor": (
      await newVendorDeveloper(baseURL!, {
        name: "Other Vendor GmbH",
        developer: { givenName: "Dora", familyName: "Dev" },
      })
    ).credentials,
    operator: ["admin@demo.test", "Admin#2026"],
  };
  const before = adminCommand(baseURL!, "clients", "show", DEMO_APPLICATION);
  for (const [role, credentials] of Object.entries(roles)) {
    const context = await signedInContext(baseURL!, credentials);
    for (const path of PAGES)
      for (const [variant, headers] of Object.entries(VARIANTS)) {
        const { status, body } = await rawBody(context, path, headers);
        const where = `${role} ${variant} ${path}`;
        expect([200, 307, 403], where).toContain(status);
        if (role === "developer of another vendor") expect(status, where).toBe(200);
        for (const marker of MARKERS) expect(body.includes(marker), `${where} shows ${marker}`).toBe(false);
      }
    for (const form of <Record<string, string>[]>[
      { action: "update", client_id: DEMO_APPLICATION, metadata: '{"client_id":"praxissoft-termine"}' },
      { action: "remove", client_id: DEMO_APPLICATION },
      { action: "secret-add", client_id: DEMO_APPLICATION },
    ]) {
      const attempt = await formAttempt(context, form);
      const where = `${role} ${form.action}`;
      expect([303, 403], where).toContain(attempt.status);
      for (const marker of MARKERS) expect(attempt.body.includes(marker), `${where} answers ${marker}`).toBe(false);
      if (attempt.status === 303) {
        const after = await rawBody(context, attempt.location.replace(/#.*/, ""), {});
        for (const marker of MARKERS) expect(after.body.includes(marker), `${where} then shows ${marker}`).toBe(false);
      }
    }
    await context.dispose();
  }
  expect(adminCommand(baseURL!, "clients", "show", DEMO_APPLICATION)).toBe(before);

  const own = await signedInContext(baseURL!, ["developer@demo.test", "Developer#2026"]);
  for (const [variant, headers] of Object.entries(VARIANTS)) {
    const { status, body } = await rawBody(own, `/portal/developer?edit=${DEMO_APPLICATION}`, headers);
    expect(status, variant).toBe(200);
    for (const marker of MARKERS) expect(body, variant).toContain(marker);
  }
  await own.dispose();
});
