/**
 * Parity of the operator's client pages and /manage/v1/clients: each action of the pages' form handler (POST
 * /interaction/admin, as the pages post it) and its API twin refuse the same metadata with the same message (the
 * page shows the rule's words in its JSON view; the API's problem detail is those words), refuse the same secret and
 * review requests, and accept the same valid metadata, with the same result.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminFormOutcome } from "@/lib/forms/admin-form-problem";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { prismaStores } from "@/lib/store/stores";
import { SECRET_KEY, signedInAgent, useOAuthService, type UserAgent } from "../../helpers/oauth-service";
import { manage, managementToken } from "../../helpers/manage-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const stores = () => prismaStores(service().database.db);
let admin: UserAgent;
let token: string;

/** The page's refusal: the problem the sealed cookie carries to the page after the form. */
async function pageRefusal(fields: Record<string, string>): Promise<AdminFormOutcome["problem"]> {
  const response = await admin.post("admin", "/interaction/admin", fields);
  expect(response.status).toBe(303);
  const outcome = unsealedCookieValue<AdminFormOutcome>(
    "optigate_admin_form",
    admin.cookies.get("optigate_admin_form"),
    SECRET_KEY,
  );
  expect(outcome, `${fields.action} was not refused`).toBeDefined();
  admin.cookies.delete("optigate_admin_form");
  return outcome!.problem;
}

/** The page shows at most 300 characters of the rule's words; those it shows are the API's. */
function expectSameWords(pageReason: string | undefined, apiDetail: string) {
  expect(pageReason).toBeDefined();
  if (pageReason!.endsWith("…")) expect(apiDetail.startsWith(pageReason!.slice(0, -1))).toBe(true);
  else expect(pageReason).toBe(apiDetail);
}

const backend = (scope: string, more: Record<string, unknown> = {}) => ({
  grant_types: ["client_credentials"],
  scope,
  ...more,
});

/** Metadata both the registration and the edit must refuse, each with the rule's own words. */
const INVALID: [string, Record<string, unknown>][] = [
  ["an unknown field", { redirect_uri: "https://a.example/cb" }],
  ["plain http", { redirect_uris: ["http://shop.example.com/cb"] }],
  ["openid for a backend client", backend("openid platform.catalogs.read")],
  ["a management scope on a web app", { redirect_uris: ["https://a.example/cb"], scope: "manage.keys.read" }],
  ["a company scope without a company", backend("manage.company.users.read")],
  ["a platform scope with a company", backend("manage.keys.read", { company_id: "demo-company-optician" })],
  ["a company that does not exist", backend("platform.catalogs.read", { company_id: "no-such-company" })],
  ["an unknown scope", backend("manage.everything")],
];

beforeAll(async () => {
  admin = await signedInAgent("admin@demo.test", "Admin#2026");
  // A client registers and changes only clients whose management scopes it holds itself (clients-reach.test.ts).
  const registers = ["manage.keys.read", "manage.outbox.read"];
  token = (await managementToken(stores(), ["manage.clients.read", "manage.clients.write", ...registers])).token;
  for (const clientId of ["parity-page", "parity-api"])
    expect(
      (await manage("POST", "/clients", { token, body: { client_id: clientId, ...backend("manage.keys.read") } }))
        .response.status,
    ).toBe(201);
});

describe(`the client pages and /manage/v1/clients alike on ${testProvider()}`, () => {
  it("refuse the same registrations with the same words, and write nothing", async () => {
    const before = (await stores().clientRegistry.list()).length;
    const cases: [string, Record<string, unknown>][] = [
      ...INVALID.map(([what, metadata]): [string, Record<string, unknown>] => [
        what,
        { client_id: "p-new", ...metadata },
      ]),
      ["a client_id taken", { client_id: "parity-api", ...backend("manage.keys.read") }],
    ];
    for (const [what, metadata] of cases) {
      const page = await pageRefusal({ action: "register", metadata: JSON.stringify(metadata) });
      const api = await manage("POST", "/clients", { token, body: metadata });
      expect([409, 422], what).toContain(api.response.status);
      expect(page.key, what).toBe("metadata");
      expectSameWords(page.reason, api.body.detail);
    }
    expect((await stores().clientRegistry.list()).length).toBe(before);
  });

  it("refuse the same changes with the same words, and change nothing", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ...INVALID,
      ["another client_id", { client_id: "someone-else", ...backend("manage.keys.read") }],
      ["a confidential client made public", { ...backend("manage.keys.read"), token_endpoint_auth_method: "none" }],
    ];
    for (const [what, metadata] of cases) {
      const page = await pageRefusal({
        action: "update",
        client_id: "parity-page",
        metadata: JSON.stringify(metadata),
      });
      const read = await manage("GET", "/clients/parity-api", { token });
      const api = await manage("PUT", "/clients/parity-api", {
        token,
        body: metadata,
        headers: { "if-match": read.response.headers.get("etag")! },
      });
      expect([409, 422], what).toContain(api.response.status);
      expect(page, what).toMatchObject({ key: "metadata", field: "metadata" });
      expectSameWords(page.reason, api.body.detail.replaceAll("parity-api", "parity-page"));
    }
    const clients = await stores().clientRegistry.list();
    for (const clientId of ["parity-page", "parity-api"])
      expect(clients.find((client) => client.id === clientId)!.allowedScopes, clientId).toEqual(["manage.keys.read"]);
  });

  it("accept the same valid registration and change, with the same result", async () => {
    const metadata = backend("manage.keys.read manage.outbox.read", { client_name: "Parity automation" });
    const registered = await admin.post("admin", "/interaction/admin", {
      action: "register",
      metadata: JSON.stringify({ client_id: "parity-page-new", ...metadata }),
    });
    expect(registered.headers.get("location")).toBe("/admin/clients/parity-page-new?created=1");
    const api = await manage("POST", "/clients", { token, body: { client_id: "parity-api-new", ...metadata } });
    expect(api.response.status).toBe(201);

    const change = { ...metadata, scope: "manage.keys.read", client_name: "Parity automation 2" };
    const edited = await admin.post("admin", "/interaction/admin", {
      action: "update",
      client_id: "parity-page-new",
      metadata: JSON.stringify(change),
    });
    expect(edited.headers.get("location")).toBe("/admin/clients/parity-page-new?saved=1");
    const replaced = await manage("PUT", "/clients/parity-api-new", {
      token,
      body: change,
      headers: { "if-match": api.response.headers.get("etag")! },
    });
    expect(replaced.response.status).toBe(200);

    const shown = async (clientId: string) => {
      const {
        client_id: _id,
        created_at: _at,
        secrets: _secrets,
        ...rest
      } = (await manage("GET", `/clients/${clientId}`, { token })).body;
      return rest;
    };
    expect(await shown("parity-page-new")).toEqual(await shown("parity-api-new"));
  });

  it("refuse the same secret requests and reviews", async () => {
    const pagePast = await pageRefusal({ action: "secret-add", client_id: "parity-page", expires: "2001-01-01" });
    const apiPast = await manage("POST", "/clients/parity-api/secrets", { token, body: { expires_at: "2001-01-01" } });
    expect(pagePast.key).toBe("expiryPast");
    expect([apiPast.response.status, apiPast.body.detail]).toEqual([
      409,
      "a new secret's expiry must lie in the future",
    ]);

    const pageNone = await pageRefusal({ action: "secret-disable", client_id: "parity-page", secret_id: "nobody" });
    const apiNone = await manage("POST", "/clients/parity-api/secrets/nobody/disable", { token });
    expect([pageNone.key, apiNone.response.status]).toEqual(["notFound", 404]);

    const [pageSecret] = (await stores().clientRegistry.findWithSecrets("parity-page"))!.secrets;
    const [apiSecret] = (await stores().clientRegistry.findWithSecrets("parity-api"))!.secrets;
    await admin.post("admin", "/interaction/admin", {
      action: "secret-disable",
      client_id: "parity-page",
      secret_id: pageSecret.id,
    });
    await manage("POST", `/clients/parity-api/secrets/${apiSecret.id}/disable`, { token });
    const pageTwice = await pageRefusal({
      action: "secret-disable",
      client_id: "parity-page",
      secret_id: pageSecret.id,
    });
    const apiTwice = await manage("POST", `/clients/parity-api/secrets/${apiSecret.id}/disable`, { token });
    expect([pageTwice.key, apiTwice.response.status]).toEqual(["alreadyDisabled", 409]);
    expect(apiTwice.body.detail).toBe(`secret "${apiSecret.id}" is already disabled`);

    const pageReview = await pageRefusal({ action: "approve", client_id: "parity-page" });
    const apiReview = await manage("POST", "/clients/parity-api/approve", { token });
    expect([pageReview.key, apiReview.response.status]).toEqual(["nothingToReview", 409]);
    const pageReason = await pageRefusal({ action: "reject", client_id: "praxissoft-termine", reason: " " });
    const apiReason = await manage("POST", "/clients/praxissoft-termine/reject", { token, body: { reason: " " } });
    expect([pageReason.key, apiReason.response.status]).toEqual(["reasonMissing", 422]);
    expect((await stores().partners.findReviewStates(["praxissoft-termine"])).get("praxissoft-termine")!.status).toBe(
      "pending",
    );
  });
});
