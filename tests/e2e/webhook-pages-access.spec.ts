/**
 * Webhook endpoints and their delivery logs (issue 48) reach their owners only. The optician's administrator adds an
 * endpoint on /portal/company and the operator one on /admin/webhooks, each seeing its secret once; the optician
 * deactivates a colleague, whose event is delivered to both. The raw HTML and RSC payload of the webhook pages, read
 * as a visitor, a user of the optician who is no administrator, another company's administrator, a supplier's user
 * and the operator, hold no endpoint address, id, secret or delivery that is not theirs; each owner's own page holds
 * its endpoint and delivery, so the check can fail, and never the secret after its one showing.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { adminCommand } from "./admin-command";
import { joinByInvitation, rawBody, signedInContext, VARIANTS } from "./raw-pages";

const OPTICIAN_URL = "https://hooks-marker-48.optik-demo.example/erp";
const OPTICIAN_DESCRIPTION = "Optician webhook marker 48";
const OPERATOR_URL = "https://ops-marker-48.example/hooks";
const EVENTS = ["user.created", "user.deactivated"];

/** A person invited through the CLI into a company with a role, joined through the invitation page. */
async function invited(baseURL: string, company: string, role: string): Promise<readonly [string, string]> {
  const email = `${role}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@${company}.test`;
  const printed = adminCommand(baseURL, "users", "invite", email, "--company", company, "--role", role);
  const password = "kontaktlinsen pflege abendrot";
  await joinByInvitation(baseURL, JSON.parse(printed).invitation_url, {
    givenName: "Test",
    familyName: "Person",
    password,
  });
  return [email, password];
}

/** Posts a form as the page that offers it would, with that page's CSRF token; the answer, not followed. */
async function postForm(context: APIRequestContext, page: string, action: string, fields: [string, string][]) {
  const html = await (await context.get(page)).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)![1];
  return context.post(action, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    data: new URLSearchParams([["csrf_token", csrf], ...fields]).toString(),
    maxRedirects: 0,
  });
}

/** The secret a page shows the one time after the form that made it. */
const shownSecret = (html: string) => /data-new-secret[^>]*>([^<]+)</.exec(html)?.[1];

/** The markers a page could hold only by leaking them: not those the visitor's own request names in its path. */
const unasked = (path: string, markers: string[]) => markers.filter((marker) => !path.includes(marker));

test("webhook endpoints, secrets and deliveries reach their owners only, in the HTML and the RSC payload", async ({
  baseURL,
}) => {
  test.setTimeout(180_000);
  const optician = await signedInContext(baseURL!, ["optician@demo.test", "Optician#2026"]);
  const operator = await signedInContext(baseURL!, ["admin@demo.test", "Admin#2026"]);
  const events = EVENTS.map((event): [string, string] => ["event", event]);

  const companyAdded = await postForm(optician, "/portal/company", "/interaction/company/webhooks", [
    ["action", "webhook-add"],
    ["url", OPTICIAN_URL],
    ["description", OPTICIAN_DESCRIPTION],
    ...events,
  ]);
  expect(companyAdded.status()).toBe(303);
  const opticianEndpoint = /#webhook-(ep_[\w-]+)$/.exec(companyAdded.headers()["location"])![1];
  const opticianSecret = shownSecret(await (await optician.get("/portal/company")).text())!;
  expect(opticianSecret).toMatch(/^whsec_/);

  const operatorAdded = await postForm(operator, "/admin/webhooks", "/interaction/admin", [
    ["action", "webhook-add"],
    ["url", OPERATOR_URL],
    ...events,
  ]);
  const operatorPage = operatorAdded.headers()["location"];
  const operatorEndpoint = /^\/admin\/webhooks\/(ep_[\w-]+)$/.exec(operatorPage)![1];
  const operatorSecret = shownSecret(await (await operator.get(operatorPage)).text())!;
  expect(operatorSecret).toMatch(/^whsec_/);

  try {
    // A user.created (the join) and a user.deactivated event of the optician's company, delivered to both endpoints.
    const leaver = await invited(baseURL!, "demo-company-optician", "user");
    const deactivated = await postForm(optician, "/portal/company", "/interaction/company", [
      ["action", "deactivate"],
      ["email", leaver[0]],
    ]);
    expect(deactivated.status()).toBe(303);
    const opticianDelivery = /data-delivery="(msg_[\w-]+)"/.exec(
      await (await optician.get("/portal/company")).text(),
    )![1];
    const operatorDelivery = /data-delivery="(msg_[\w-]+)"/.exec(await (await operator.get(operatorPage)).text())![1];

    const opticianMarkers = [OPTICIAN_URL, OPTICIAN_DESCRIPTION, opticianEndpoint, opticianDelivery, opticianSecret];
    const operatorMarkers = [OPERATOR_URL, operatorEndpoint, operatorDelivery, operatorSecret];
    const pages = [
      "/portal/company",
      "/admin/webhooks",
      `/admin/webhooks/${opticianEndpoint}`,
      `/admin/webhooks/${operatorEndpoint}`,
      `/portal/company?webhook=${opticianEndpoint}&older=1.msg_x`,
    ];

    // Each owner sees its own endpoint and delivery, and never the secret again.
    for (const [variant, headers] of Object.entries(VARIANTS)) {
      const own = await rawBody(optician, "/portal/company", headers);
      expect(own.status, variant).toBe(200);
      for (const marker of [OPTICIAN_URL, opticianEndpoint, opticianDelivery])
        expect(own.body, variant).toContain(marker);
      for (const marker of [opticianSecret, ...operatorMarkers])
        expect(own.body.includes(marker), `the optician's ${variant} holds ${marker}`).toBe(false);
      const ops = await rawBody(operator, operatorPage, headers);
      expect(ops.status, variant).toBe(200);
      for (const marker of [OPERATOR_URL, operatorDelivery]) expect(ops.body, variant).toContain(marker);
      expect(ops.body.includes(operatorSecret), `the operator's ${variant} holds the secret`).toBe(false);
      for (const path of pages.filter((page) => page.startsWith("/admin/"))) {
        const refused = await rawBody(optician, path, headers);
        expect([200, 403, 404], `optician ${variant} ${path}`).toContain(refused.status);
        for (const marker of unasked(path, [...opticianMarkers, ...operatorMarkers]))
          expect(refused.body.includes(marker), `optician ${variant} ${path} holds ${marker}`).toBe(false);
      }
    }

    const roles: Record<string, readonly [string, string] | undefined> = {
      visitor: undefined,
      "user of the company, no administrator": await invited(baseURL!, "demo-company-optician", "user"),
      "administrator of another company": await invited(baseURL!, "demo-company-lens", "admin"),
      "supplier user": ["frames@demo.test", "Frames#2026"],
      operator: ["admin@demo.test", "Admin#2026"],
    };
    for (const [role, credentials] of Object.entries(roles)) {
      const context = await signedInContext(baseURL!, credentials);
      for (const path of pages) {
        // The operator's own endpoint, and a company's endpoint's page, are the operator's to see; the secrets never.
        const theirs = role === "operator" && path.startsWith("/admin/");
        const markers = theirs
          ? [opticianSecret, operatorSecret, ...(path === "/admin/webhooks" ? [OPTICIAN_URL, opticianEndpoint] : [])]
          : [...opticianMarkers, ...operatorMarkers];
        for (const [variant, headers] of Object.entries(VARIANTS)) {
          const { status, body } = await rawBody(context, path, headers);
          const where = `${role} ${variant} ${path}`;
          expect([200, 307, 403, 404], where).toContain(status);
          for (const marker of unasked(path, markers))
            expect(body.includes(marker), `${where} contains ${marker}`).toBe(false);
        }
      }
      await context.dispose();
    }
  } finally {
    await postForm(optician, "/portal/company", "/interaction/company/webhooks", [
      ["action", "webhook-remove"],
      ["endpoint_id", opticianEndpoint],
    ]);
    await postForm(operator, "/admin/webhooks", "/interaction/admin", [
      ["action", "webhook-remove"],
      ["endpoint_id", operatorEndpoint],
    ]);
    await optician.dispose();
    await operator.dispose();
  }
});
