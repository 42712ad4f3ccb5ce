/**
 * The webhook store's contract: endpoints kept per owner up to a limit, audited changes, deliveries queued with the
 * audit event they come from (to the platform's endpoints and the event's company's, subscribed and on; none for an
 * event no webhook is about), the delivery log in pages, replays that never queue a waiting delivery twice, attempts
 * that keep the endpoint's failing_since, giving up that turns the endpoint off and mails once, and the outbox claim
 * of one kind.
 */
import { afterEach, describe, expect, it } from "vitest";
import { acceptOlderSecretKeys, isSealedUnder, seal, unseal } from "@/lib/crypto/secret-box";
import type { NewWebhookEndpoint, WebhookEventType } from "@/lib/store/models/webhook";
import { freshValue, later, newPerson, NOW, type StoreBackend } from "./store-backend";

const EARLY = new Date("2020-01-01T00:00:00.000Z");

export function webhookContract(backend: StoreBackend): void {
  const webhooks = () => backend.stores().webhooks;
  const made: string[] = [];
  const endpoint = (companyId: string | null, events: WebhookEventType[]): NewWebhookEndpoint => {
    const id = freshValue("ep");
    made.push(id);
    return {
      id,
      companyId,
      url: "https://hooks.example/in",
      description: "ERP",
      events,
      secretSealed: "sealed",
      registeredByOperator: false,
    };
  };
  const add = async (companyId: string | null, events: WebhookEventType[]) => {
    const added = await webhooks().addEndpoint(endpoint(companyId, events), 20, NOW, "operator-1");
    if (added === "too_many") throw new Error("too many");
    return added;
  };
  const otherCompany = async () => {
    const id = freshValue("webhook-company");
    await backend
      .stores()
      .companies.insert(id, { name: "Other Optics", kind: "eye_care_professional", webServices: [] });
    return id;
  };
  /** The deliveries of an endpoint, newest first. */
  const log = (endpointId: string) => webhooks().listDeliveries(endpointId, { limit: 50 });

  afterEach(async () => {
    // Endpoints left on would get the events of the other stores' cases.
    for (const id of made.splice(0)) await webhooks().removeEndpoint(id);
  });

  describe("webhooks", () => {
    it("keeps an owner's endpoints up to the limit, audited, and changes, re-keys and removes them", async () => {
      const companyId = await otherCompany();
      const first = await add(companyId, ["user.created"]);
      expect(first).toMatchObject({ companyId, enabled: true, events: ["user.created"], failingSince: null });
      expect(await webhooks().addEndpoint(endpoint(companyId, ["user.created"]), 1, NOW)).toBe("too_many");
      expect((await webhooks().listEndpoints(companyId)).map((each) => each.id)).toEqual([first.id]);
      expect((await webhooks().listEndpoints(null)).some((each) => each.id === first.id)).toBe(false);

      const off = await webhooks().updateEndpoint(
        first.id,
        { enabled: false, description: "Off" },
        later(1),
        "operator-1",
      );
      expect(off).toMatchObject({ enabled: false, description: "Off", events: ["user.created"] });
      const rekeyed = await webhooks().replaceSecret(first.id, "sealed-2", later(2), "operator-1");
      expect(rekeyed?.secretSealed).toBe("sealed-2");
      expect(await webhooks().updateEndpoint("no-such-endpoint", { enabled: true }, later(3))).toBeNull();
      expect(await webhooks().removeEndpoint(first.id, "operator-1")).toBe(true);
      expect(await webhooks().findEndpoint(first.id)).toBeNull();
      expect(await webhooks().removeEndpoint(first.id)).toBe(false);
      const trail = await backend.stores().audit.list({ userId: "operator-1" }, 500);
      const mine = trail.filter((event) => JSON.parse(event.details).webhookId === first.id).map((event) => event.type);
      expect(mine.sort()).toEqual(["webhook.added", "webhook.removed", "webhook.secret_rotated", "webhook.updated"]);
    });

    it("queues an event's deliveries for the platform's endpoints and its company's, subscribed and on", async () => {
      const { companyId } = backend.subjects();
      const person = await newPerson(backend, "webhook-person");
      const platform = await add(null, ["user.deactivated"]);
      const own = await add(companyId, ["user.deactivated", "user.erased"]);
      const other = await add(await otherCompany(), ["user.deactivated"]);
      const unsubscribed = await add(companyId, ["user.created"]);
      const off = await add(companyId, ["user.deactivated"]);
      await webhooks().updateEndpoint(off.id, { enabled: false }, NOW);

      await backend.stores().audit.record({ type: "user.deactivated", details: { subjectUserId: person.id } });
      const [delivered] = await log(own.id);
      expect(delivered).toMatchObject({ endpointId: own.id, eventType: "user.deactivated", status: "queued" });
      expect(delivered.id).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
      const payload = JSON.parse(delivered.payload);
      expect(payload).toEqual({
        type: "user.deactivated",
        timestamp: expect.any(String),
        data: { userId: person.id, companyId },
      });
      expect(await log(platform.id)).toHaveLength(1);
      for (const nothing of [other, unsubscribed, off]) expect(await log(nothing.id)).toEqual([]);

      // Events no webhook is about queue nothing.
      await backend.stores().audit.record({ type: "user.activated", details: { subjectUserId: person.id } });
      expect(await log(own.id)).toHaveLength(1);
      const claimed = await backend.stores().outbox.claimDue({
        token: freshValue("claim"),
        limit: 50,
        now: later(60, new Date()),
        holdUntil: later(120, new Date()),
        kinds: ["webhook"],
      });
      expect(claimed.every((message) => message.kind === "webhook")).toBe(true);
      const mine = claimed.filter((message) => message.recipient === own.id);
      expect(mine.map((message) => [message.subject, message.sealedBody])).toEqual([[delivered.id, null]]);
      for (const message of claimed) await backend.stores().outbox.markSent(message, new Date());
    });

    it("pages the delivery log newest first and replays a delivery once it no longer waits", async () => {
      const { companyId } = backend.subjects();
      const person = await newPerson(backend, "webhook-log");
      const own = await add(companyId, ["user.deactivated"]);
      for (let round = 0; round < 3; round++)
        await backend.stores().audit.record({ type: "user.deactivated", details: { subjectUserId: person.id } });
      const all = await log(own.id);
      expect(all).toHaveLength(3);
      // A page reads one more than its limit, to tell whether more follow.
      const first = await webhooks().listDeliveries(own.id, { limit: 2 });
      expect(first.map((delivery) => delivery.id)).toEqual(all.map((delivery) => delivery.id));
      const rest = await webhooks().listDeliveries(own.id, { limit: 2, after: first[1] });
      expect(rest.map((delivery) => delivery.id)).toEqual([all[2].id]);

      const delivery = all[0];
      expect(await webhooks().replay(delivery.id, later(10))).toBe("queued");
      await webhooks().recordAttempt(delivery.id, { at: later(11), delivered: true, status: 204, error: null });
      const replayed = await webhooks().replay(delivery.id, later(12), "operator-1");
      expect(replayed).toMatchObject({ id: delivery.id, status: "queued", attempts: 1, queuedAt: later(12) });
      expect(await webhooks().replay(delivery.id, later(13))).toBe("queued");
      expect(await webhooks().replay("msg_none", later(13))).toBeNull();
    });

    it("keeps failing_since through failed attempts, and gives up once: the endpoint off, its owners mailed", async () => {
      const companyId = await otherCompany();
      const admin = `${freshValue("webhook-admin")}@contract.example`;
      const user = { givenName: "Ada", familyName: "Admin", role: "admin", emailVerified: true, passwordHash: "x" };
      await backend.stores().users.save({ ...user, email: admin, companyId });
      expect(await webhooks().ownersOf(companyId)).toEqual([{ email: admin, preferredLanguage: null }]);

      const own = await add(companyId, ["catalog.released"]);
      const released = { supplierCompanyId: companyId, catalogId: "catalog.xml", revision: 2 };
      await backend.stores().audit.record({ type: "catalog.released", details: released });
      await backend.stores().audit.record({ type: "catalog.released", details: released });
      const [one, two] = await log(own.id);
      expect(JSON.parse(one.payload).data).toEqual({ catalogId: "catalog.xml", revision: 2, companyId });

      const failed = (seconds: number) => ({
        at: later(seconds),
        delivered: false,
        status: 500,
        error: "answered 500",
      });
      await webhooks().recordAttempt(one.id, failed(1));
      await webhooks().recordAttempt(one.id, failed(2));
      expect((await webhooks().findEndpoint(own.id))?.failingSince).toEqual(later(1));
      expect(await webhooks().findDelivery(one.id)).toMatchObject({ attempts: 2, lastStatus: 500, status: "queued" });

      const mail = { kind: "webhook_disabled", recipient: admin, language: "en", subject: "Off", sealedBody: "x" };
      const before = (await backend.stores().outbox.list(10_000)).filter((row) => row.recipient === admin).length;
      expect(await webhooks().giveUp(one.id, failed(3), "no delivery for 24 hours", [mail])).toBe(true);
      expect(await webhooks().giveUp(two.id, failed(4), "no delivery for 24 hours", [mail])).toBe(false);
      expect(await webhooks().findDelivery(one.id)).toMatchObject({ status: "failed", attempts: 3 });
      expect(await webhooks().findEndpoint(own.id)).toMatchObject({
        enabled: false,
        disabledReason: "no delivery for 24 hours",
      });
      const after = (await backend.stores().outbox.list(10_000)).filter((row) => row.recipient === admin).length;
      expect(after - before).toBe(1);

      const on = await webhooks().updateEndpoint(own.id, { enabled: true }, later(5));
      expect(on).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });

      // The purge takes what no longer waits: the failed delivery, not the one queued again.
      expect((await webhooks().replay(two.id, later(6)))?.toString()).not.toBe("queued");
      expect(await webhooks().purgeDeliveries(EARLY)).toBe(0);
      expect(await webhooks().purgeDeliveries(new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(1);
      expect((await log(own.id)).map((delivery) => delivery.id)).toEqual([two.id]);
    });

    it("seals an endpoint's secret anew under the newest key, which still opens it", async () => {
      const older = "contract-older-secret-key-0123456789abcdef";
      const sealed = await webhooks().addEndpoint(
        { ...endpoint(null, ["user.created"]), secretSealed: seal("whsec_c2VjcmV0", older, "webhook-secret") },
        20,
        NOW,
      );
      if (sealed === "too_many") throw new Error("too many");
      acceptOlderSecretKeys(backend.secretKey, [older]);
      try {
        const counts = await backend.stores().maintenance.resealSecrets(backend.secretKey);
        expect(counts.webhookSecrets.resealed).toBeGreaterThanOrEqual(1);
      } finally {
        acceptOlderSecretKeys(backend.secretKey, []);
      }
      const resealed = (await webhooks().findEndpoint(sealed.id))!.secretSealed;
      expect(isSealedUnder(resealed, backend.secretKey)).toBe(true);
      expect(unseal(resealed, backend.secretKey, "webhook-secret")).toBe("whsec_c2VjcmV0");
    });
  });
}
