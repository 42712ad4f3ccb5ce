/**
 * The operator's webhook pages (issue 48) through the real form route /interaction/admin with a signed-in operator,
 * the real outbox worker and a receiver on 127.0.0.1 that verifies each delivery with the `standardwebhooks`
 * package: an endpoint added on the page shows its secret once, gets a company's event, lists it in its delivery log
 * and gets it again, with the same webhook-id, when the page replays it; it is turned off and on, gets a new secret,
 * refuses a bad change at its field, and is removed with its log. An expired form does nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboxWorker } from "@/lib/mail/outbox-worker";
import { actorOfSessionCookie } from "@/lib/rights/actor";
import { operatorWebhookView, platformWebhooksView } from "@/lib/rights/webhook-pages";
import { outboxTransports } from "@/lib/server/mail-composers";
import { getServiceContext } from "@/lib/service-context";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { prismaStores } from "@/lib/store/stores";
import { SECRET_KEY, signedInAgent, useOAuthService, type UserAgent } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";
import { postAdminWebhooks } from "../../helpers/webhook-forms";
import { startWebhookReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver";

// An operator's endpoint may be in OUTBOUND_ALLOW's ranges: here the receiver's loopback (read once, at first use).
process.env.OUTBOUND_ALLOW = "127.0.0.0/8";

const service = useOAuthService();
const db = () => service().database.db;
const stores = () => prismaStores(db());
const OPTICIAN = ["optician@demo.test", "Optician#2026"] as const;

let operator: UserAgent;
let optician: UserAgent;
let receiver: WebhookReceiver;

/** Delivers what is due now, as the server's outbox worker does: webhooks only, no mail server. */
async function deliver(): Promise<number> {
  const worker = createOutboxWorker({
    outbox: stores().outbox,
    secretKey: SECRET_KEY,
    transports: outboxTransports(getServiceContext()),
  });
  const sent = await worker.deliverDue();
  await worker.stop();
  return sent;
}

/** A user.deactivated event of the optician's company: its administrator deactivates a colleague on her page. */
async function companyEvent(email: string) {
  for (const action of ["activate", "deactivate"]) {
    const response = await optician.post("company", "/interaction/company", { action, email });
    expect(response.status).toBe(303);
  }
}

const operatorActor = () => actorOfSessionCookie(getServiceContext(), operator.cookies.get(SESSION_COOKIE));
const endpointRow = (id: string) => db().webhookEndpoint.findUnique({ where: { id } });

beforeAll(async () => {
  operator = await signedInAgent("admin@demo.test", "Admin#2026");
  optician = await signedInAgent(...OPTICIAN);
  const { passwordHash } = await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } });
  await db().user.create({
    data: {
      email: "staff@optik-demo.example",
      companyId: "demo-company-optician",
      role: "user",
      givenName: "Staff",
      familyName: "Member",
      passwordHash,
    },
  });
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver?.close());

describe(`the operator's webhook pages on ${testProvider()}`, () => {
  let endpointId: string;
  let secret: string;

  it("add an endpoint, show its secret once, and deliver a company's event to it, signed", async () => {
    const url = receiver.url("/ops");
    const added = await postAdminWebhooks(operator, {
      action: "webhook-add",
      url,
      description: "ERP sync",
      event: ["user.deactivated", "user.created"],
    });
    expect(added.response.status).toBe(303);
    expect(added.outcome).toMatchObject({ action: "webhook-add", endpointId: expect.stringMatching(/^ep_/) });
    endpointId = added.outcome!.endpointId!;
    secret = added.outcome!.secret!;
    expect(secret).toMatch(/^whsec_/);
    expect(added.location).toBe(`/admin/webhooks/${endpointId}`);
    expect(await endpointRow(endpointId)).toMatchObject({ companyId: null, url, registeredByOperator: true });
    expect(JSON.stringify(await endpointRow(endpointId))).not.toContain(secret.slice(6));

    // The pages never hold it again: neither the list nor the endpoint's page.
    const list = await platformWebhooksView(await operatorActor());
    expect(list.endpoints.map((endpoint) => endpoint.id)).toEqual([endpointId]);
    const page = await operatorWebhookView(await operatorActor(), endpointId);
    expect(JSON.stringify([list, page])).not.toContain(secret.slice(6));

    receiver.secrets.set("/ops", secret);
    await companyEvent("staff@optik-demo.example");
    expect(await deliver()).toBe(1);
    const [delivery] = receiver.at("/ops");
    expect(delivery.verified).toMatchObject({
      type: "user.deactivated",
      data: { companyId: "demo-company-optician" },
    });

    const logged = (await operatorWebhookView(await operatorActor(), endpointId))!.log;
    expect(logged.deliveries).toMatchObject([
      { id: delivery.id, eventType: "user.deactivated", status: "delivered", attempts: 1, lastStatus: 200 },
    ]);
    expect([logged.older, logged.paged]).toEqual([undefined, false]);
  });

  it("replays a delivery from the page with the same webhook-id, once while it waits", async () => {
    const [{ id }] = receiver.at("/ops");
    const replayed = await postAdminWebhooks(operator, {
      action: "webhook-replay",
      endpoint_id: endpointId,
      delivery_id: id,
    });
    expect([replayed.location, replayed.outcome]).toEqual([
      `/admin/webhooks/${endpointId}`,
      { action: "webhook-replay", endpointId, deliveryId: id },
    ]);
    const again = await postAdminWebhooks(operator, {
      action: "webhook-replay",
      endpoint_id: endpointId,
      delivery_id: id,
    });
    expect(again.outcome).toMatchObject({ problem: "not_replayable", detail: expect.stringContaining("waits") });
    const unknown = await postAdminWebhooks(operator, {
      action: "webhook-replay",
      endpoint_id: endpointId,
      delivery_id: "msg_nothing",
    });
    expect(unknown.outcome).toMatchObject({ problem: "not_found", endpointId });

    expect(await deliver()).toBe(1);
    expect(receiver.at("/ops").map((delivery) => [delivery.id, Boolean(delivery.verified)])).toEqual([
      [id, true],
      [id, true],
    ]);
    const audit = await db().auditEvent.count({ where: { type: "webhook.replayed" } });
    expect(audit).toBe(1);
  });

  it("turns the endpoint off (no deliveries, no replay) and on again", async () => {
    const off = await postAdminWebhooks(operator, { action: "webhook-disable", endpoint_id: endpointId });
    expect(off.outcome).toEqual({ action: "webhook-disable", endpointId });
    expect(await endpointRow(endpointId)).toMatchObject({ enabled: false, disabledReason: null });
    const before = await db().webhookDelivery.count();
    await companyEvent("staff@optik-demo.example");
    expect(await db().webhookDelivery.count()).toBe(before);
    const [{ id }] = receiver.at("/ops");
    const replay = await postAdminWebhooks(operator, {
      action: "webhook-replay",
      endpoint_id: endpointId,
      delivery_id: id,
    });
    expect(replay.outcome).toMatchObject({ problem: "not_replayable", detail: expect.stringContaining("turned off") });

    const on = await postAdminWebhooks(operator, { action: "webhook-enable", endpoint_id: endpointId });
    expect(on.outcome).toEqual({ action: "webhook-enable", endpointId });
    expect(await endpointRow(endpointId)).toMatchObject({ enabled: true });
  });

  it("rotates the secret (shown once) and signs with the new one from then on", async () => {
    const rotated = await postAdminWebhooks(operator, { action: "webhook-rotate", endpoint_id: endpointId });
    expect(rotated.outcome).toMatchObject({
      action: "webhook-rotate",
      endpointId,
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(rotated.outcome!.secret).not.toBe(secret);
    receiver.secrets.set("/ops", rotated.outcome!.secret!);
    const [{ id }] = receiver.at("/ops");
    await postAdminWebhooks(operator, { action: "webhook-replay", endpoint_id: endpointId, delivery_id: id });
    expect(await deliver()).toBe(1);
    expect(receiver.at("/ops").at(-1)!.verified).toMatchObject({ type: "user.deactivated" });
  });

  it("refuses a bad change at its field with what was typed, and saves a good one", async () => {
    const before = await endpointRow(endpointId);
    const cases: [Record<string, string | string[]>, string][] = [
      [{ url: "http://10.1.2.3/hook", event: "user.created" }, "invalid_url"],
      [{ url: "https://user:pw@hooks.example.com/", event: "user.created" }, "invalid_url"],
      [{ url: receiver.url("/ops"), description: "x".repeat(201), event: "user.created" }, "invalid_description"],
      [{ url: receiver.url("/ops"), description: "two\nlines", event: "user.created" }, "invalid_description"],
      [{ url: receiver.url("/ops") }, "invalid_events"],
      [{ url: receiver.url("/ops"), event: ["user.created", "user.exploded"] }, "invalid_events"],
    ];
    for (const [form, problem] of cases) {
      const refused = await postAdminWebhooks(operator, { action: "webhook-change", endpoint_id: endpointId, ...form });
      expect(refused.location, problem).toBe(`/admin/webhooks/${endpointId}`);
      expect(refused.outcome, JSON.stringify(form)).toMatchObject({
        action: "webhook-change",
        problem,
        endpointId,
        detail: expect.any(String),
        typed: { url: form.url, events: [form.event ?? []].flat() },
      });
    }
    expect(await endpointRow(endpointId)).toEqual(before);

    const saved = await postAdminWebhooks(operator, {
      action: "webhook-change",
      endpoint_id: endpointId,
      url: receiver.url("/ops"),
      description: "ERP, all people",
      event: ["user.created", "user.deactivated", "user.erased"],
    });
    expect(saved.outcome).toEqual({ action: "webhook-change", endpointId });
    expect(await endpointRow(endpointId)).toMatchObject({
      description: "ERP, all people",
      events: JSON.stringify(["user.created", "user.deactivated", "user.erased"]),
    });
  });

  it("refuses an add at its field, keeping what was typed, and an expired form, writing nothing", async () => {
    const count = await db().webhookEndpoint.count();
    const refused = await postAdminWebhooks(operator, {
      action: "webhook-add",
      url: "ftp://files.example.com/",
      description: "Files",
      event: "catalog.released",
    });
    expect(refused.location).toBe("/admin/webhooks#webhook-new");
    expect(refused.outcome).toMatchObject({
      problem: "invalid_url",
      typed: { url: "ftp://files.example.com/", description: "Files", events: ["catalog.released"] },
    });
    const expired = await postAdminWebhooks(operator, {
      [CSRF_FIELD]: "forged",
      action: "webhook-remove",
      endpoint_id: endpointId,
    });
    expect(expired.outcome).toEqual({ action: "webhook-remove", problem: "form_expired", endpointId });
    expect(await db().webhookEndpoint.count()).toBe(count);
  });

  it("removes the endpoint with its delivery log", async () => {
    const removed = await postAdminWebhooks(operator, { action: "webhook-remove", endpoint_id: endpointId });
    expect([removed.location, removed.outcome]).toEqual(["/admin/webhooks", { action: "webhook-remove", endpointId }]);
    expect(await endpointRow(endpointId)).toBeNull();
    expect(await db().webhookDelivery.count({ where: { endpointId } })).toBe(0);
    expect(await operatorWebhookView(await operatorActor(), endpointId)).toBeUndefined();
    const again = await postAdminWebhooks(operator, { action: "webhook-remove", endpoint_id: endpointId });
    expect([again.location, again.outcome?.problem]).toEqual(["/admin/webhooks", "not_found"]);
  });
});
