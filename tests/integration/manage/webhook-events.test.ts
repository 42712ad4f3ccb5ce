/**
 * Every webhook event, delivered for the real action behind it (an invitation accepted, a consent withdrawn, an
 * account locked, a user deactivated and erased, a vendor's application registered and approved, a catalog released,
 * a registration decided) by the outbox worker to receivers on 127.0.0.1 that verify each delivery with the
 * `standardwebhooks` package: the platform's endpoint gets them all, a company's endpoint its company's alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { createOutboxWorker } from "@/lib/mail/outbox-worker";
import { outboxTransports } from "@/lib/server/mail-composers";
import { serviceContextFor } from "@/lib/service-context";
import { WEBHOOK_EVENT_TYPES } from "@/lib/store/models/webhook";
import { prismaStores } from "@/lib/store/stores";
import { runAdmin } from "../../helpers/admin-cli";
import { manage, managementToken } from "../../helpers/manage-api";
import { call, ISSUER, signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { api, userToken, userTokens } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";
import { startWebhookReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver";

// The operator's endpoints may be on the loopback (CONTRACT §14).
process.env.OUTBOUND_ALLOW = "127.0.0.0/8";

const service = useOAuthService();
const db = () => service().database.db;
const admin = (...args: string[]) => runAdmin(db(), args);
const OPTICIAN = "demo-company-optician";
const LENS = "demo-company-lens";
let receiver: WebhookReceiver;
let operator: string;
const endpoints = new Map<string, string>();

/** The outbox worker of a server without a mail server: it sends the webhooks. */
async function deliver(): Promise<void> {
  const context = serviceContextFor(prismaStores(db()), loadConfig());
  const worker = createOutboxWorker({
    outbox: context.stores.outbox,
    secretKey: "",
    transports: outboxTransports(context),
  });
  await worker.deliverDue();
  await worker.stop();
}

/** The event types a receiver's path got, with their data, in order. */
const got = (path: string) => receiver.at(path).map((delivery) => delivery.verified);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  operator = (await managementToken(prismaStores(db()), ["manage.webhooks.read", "manage.webhooks.write"])).token;
  for (const [path, query] of [
    ["/platform", ""],
    ["/optician", `?companyId=${OPTICIAN}`],
    ["/lens", `?companyId=${LENS}`],
  ]) {
    const body = { url: receiver.url(path), events: [...WEBHOOK_EVENT_TYPES] };
    const added = await manage("POST", `/webhooks${query}`, { token: operator, body });
    expect(added.response.status, JSON.stringify(added.body)).toBe(201);
    receiver.secrets.set(path, added.body.secret);
    endpoints.set(path, added.body.id);
  }
});
afterAll(() => receiver.close());

async function joinAs(email: string, password: string): Promise<string> {
  const invited = await admin("users", "invite", email, "--company", OPTICIAN);
  expect(invited.code, invited.stderr).toBe(0);
  const token = new URL(JSON.parse(invited.stdout).invitation_url).searchParams.get("token")!;
  const agent = new UserAgent();
  const form = { token, given_name: "Pia", family_name: "Neu", password };
  expect((await agent.post("invitation", "/interaction/invitation", form)).status).toBe(303);
  return (await db().user.findUniqueOrThrow({ where: { email } })).id;
}

async function vendorApplication(): Promise<string> {
  const issued = await admin("partners", "token", "demo-company-vendor");
  const token = JSON.parse(issued.stdout).initial_access_token;
  const metadata = {
    client_name: "Praxissoft Shop",
    redirect_uris: ["https://shop.praxissoft.example/callback"],
    scope: "openid profile",
  };
  const registered = await call(
    "register",
    new Request(`${ISSUER}/connect/register`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(metadata),
    }),
  );
  expect(registered.status).toBe(201);
  return (await registered.json()).client_id;
}

describe(`webhook events on ${testProvider()}`, () => {
  it("delivers each event for its action, signed, to the platform's endpoint and its company's alone", async () => {
    const email = "pia.neu@shop.example";
    const password = "a long enough passphrase";
    const userId = await joinAs(email, password);
    const invitationId = (await db().invitation.findUniqueOrThrow({ where: { email } })).id;
    await deliver();
    const person = { userId, companyId: OPTICIAN };
    expect(got("/optician").map((payload) => [payload?.type, payload?.data])).toEqual([
      ["user.created", { ...person, method: "invitation" }],
      ["invitation.accepted", { ...person, invitationId }],
    ]);

    const agent = await signedInAgent(email, password);
    await userTokens(email, password, "openid", agent);
    expect(
      (await agent.post("portal", "/interaction/portal", { action: "revoke", client_id: "demo-web" })).status,
    ).toBe(303);
    for (let attempt = 0; attempt < 5; attempt++) await new UserAgent().login("/", email, "wrong passphrase");
    expect((await admin("users", "deactivate", email)).code).toBe(0);
    expect((await admin("users", "remove", email)).code).toBe(0);

    const clientId = await vendorApplication();
    expect((await admin("clients", "approve", clientId)).code).toBe(0);
    const released = await admin("catalogs", "release", "DLAG", "catalog.xml", "3");
    expect(released.code, released.stderr).toBe(0);
    const supplier = await userToken("supplier@demo.test", "Supplier#2026", "platform.supplierreg.readwrite");
    const [request] = (await api("GET", "/v2/supplierregistrations?status=requested", { token: supplier })).body.items;
    const current = await api("GET", `/v2/supplierregistrations/${request.id}`, { token: supplier });
    const decided = await api("PATCH", `/v2/supplierregistrations/${request.id}`, {
      token: supplier,
      body: { status: "active", customerGroups: [] },
      headers: { "if-match": current.response.headers.get("etag")! },
    });
    expect(decided.response.status).toBe(200);
    await deliver();

    expect(receiver.received.every((delivery) => delivery.verified !== undefined)).toBe(true);
    expect(new Set(receiver.received.map((delivery) => delivery.id)).size).toBe(receiver.received.length);
    expect(
      got("/platform")
        .map((payload) => payload?.type)
        .sort(),
    ).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const optician = got("/optician").slice(2);
    expect(optician.map((payload) => [payload?.type, payload?.data])).toEqual([
      ["consent.revoked", { ...person, clientId: "demo-web" }],
      ["signin.failed.locked", { ...person, cause: "password", lockedUntil: expect.any(String) }],
      ["user.deactivated", person],
      ["user.erased", person],
    ]);
    expect(got("/lens").map((payload) => [payload?.type, payload?.data])).toEqual([
      ["catalog.released", { catalogId: "catalog.xml", revision: 3, companyId: LENS }],
      [
        "registration.decided",
        {
          registrationId: request.id,
          decision: "approved",
          opticianCompanyId: "demo-company-optician-sonne",
          supplierCompanyId: LENS,
        },
      ],
    ]);
    const vendor = got("/platform").filter((payload) => payload?.type.startsWith("client."));
    expect(vendor.map((payload) => [payload?.type, payload?.data])).toEqual([
      ["client.pending", { clientId, companyId: "demo-company-vendor" }],
      ["client.approved", { clientId, companyId: "demo-company-vendor" }],
    ]);
    for (const payload of got("/platform"))
      expect(Date.parse(payload!.timestamp)).toBeGreaterThan(Date.now() - 600_000);

    const log = await manage("GET", `/webhooks/${endpoints.get("/optician")}/deliveries`, { token: operator });
    expect(log.body.items).toHaveLength(6);
    for (const item of log.body.items)
      expect(item).toMatchObject({ status: "delivered", attempts: 1, last_status: 200, last_error: null });
  });
});
