/**
 * Webhook deliveries through the outbox: a failing endpoint tried again with growing pauses (the worker's clock moved
 * through them) for 24 h, then the delivery failed, the endpoint turned off and its company's administrators mailed;
 * a replay with the same webhook-id; the cron route without a mail server; the attempts of a removed endpoint dropped,
 * and those of one turned off failed without sending. Receivers on 127.0.0.1 verify every delivery.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { localeOr } from "@/lib/i18n/locales";
import { openMailBody } from "@/lib/mail/outbox";
import { createOutboxWorker } from "@/lib/mail/outbox-worker";
import { handleCronOutbox } from "@/lib/server/cron-endpoints";
import { outboxTransports } from "@/lib/server/mail-composers";
import { serviceContextFor } from "@/lib/service-context";
import { prismaStores } from "@/lib/store/stores";
import { runAdmin } from "../../helpers/admin-cli";
import { manage, managementToken } from "../../helpers/manage-api";
import { ISSUER, SECRET_KEY, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";
import { startWebhookReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver";

process.env.OUTBOUND_ALLOW = "127.0.0.0/8";

const service = useOAuthService();
const db = () => service().database.db;
const admin = (...args: string[]) => runAdmin(db(), args);
const OPTICIAN = "demo-company-optician";
let receiver: WebhookReceiver;
let operator: string;
let joined = 0;

const context = (config: Partial<Config> = {}) => serviceContextFor(prismaStores(db()), { ...loadConfig(), ...config });
const workerAt = (clock: () => Date) =>
  createOutboxWorker({
    outbox: context().stores.outbox,
    secretKey: "",
    transports: outboxTransports(context()),
    clock,
  });

/** An endpoint of the optician company at a receiver path, for user.deactivated; its id. */
async function endpointAt(path: string): Promise<string> {
  const body = { url: receiver.url(path), events: ["user.deactivated"] };
  const added = await manage("POST", `/webhooks?companyId=${OPTICIAN}`, { token: operator, body });
  expect(added.response.status).toBe(201);
  receiver.secrets.set(path, added.body.secret);
  return added.body.id;
}

/** A person joins the optician company and is deactivated: one user.deactivated event. */
async function deactivateSomeone(): Promise<void> {
  const email = `leaver-${++joined}@shop.example`;
  const invited = JSON.parse((await admin("users", "invite", email, "--company", OPTICIAN)).stdout);
  const token = new URL(invited.invitation_url).searchParams.get("token")!;
  const form = { token, given_name: "Lea", family_name: "Ver", password: "a long enough passphrase" };
  expect((await new UserAgent().post("invitation", "/interaction/invitation", form)).status).toBe(303);
  expect((await admin("users", "deactivate", email)).code).toBe(0);
}

const attemptsOf = (endpointId: string) =>
  db().outboxMessage.findMany({ where: { kind: "webhook", recipient: endpointId }, orderBy: { createdAt: "asc" } });

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  operator = (await managementToken(prismaStores(db()), ["manage.webhooks.read", "manage.webhooks.write"])).token;
});
afterAll(() => receiver.close());

describe(`webhook delivery on ${testProvider()}`, () => {
  it("retries for 24 h with growing pauses, then fails, turns the endpoint off and mails; a replay sends it again", async () => {
    const id = await endpointAt("/failing");
    receiver.statuses.set("/failing", 500);
    await deactivateSomeone();
    // The first attempt when the delivery was queued: its retries end 24 h later.
    const start = (await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: id } })).queuedAt;
    let now = start;
    const worker = workerAt(() => now);
    await worker.deliverDue();
    const pauses: number[] = [];
    for (let [message] = await attemptsOf(id); message.status === "queued"; [message] = await attemptsOf(id)) {
      expect(message.lastError).toBe("answered 500");
      pauses.push((message.nextAttemptAt.getTime() - now.getTime()) / 1000);
      now = message.nextAttemptAt;
      await worker.deliverDue();
    }
    await worker.stop();
    expect(pauses).toEqual([30, 60, 120, 240, 480, 960, 1920, 3840, 7680, 14400, 14400, 14400, 14400, 13470]);
    expect(now.getTime() - start.getTime()).toBe(24 * 3600_000);

    const attempts = receiver.at("/failing");
    expect(attempts).toHaveLength(15);
    expect(new Set(attempts.map((attempt) => attempt.id)).size).toBe(1);
    expect(attempts.every((attempt) => attempt.verified?.type === "user.deactivated")).toBe(true);
    expect(attempts.at(-1)!.timestamp).toBe(Math.floor(now.getTime() / 1000));
    const log = await manage("GET", `/webhooks/${id}/deliveries`, { token: operator });
    expect(log.body.items).toEqual([
      expect.objectContaining({ id: attempts[0].id, status: "failed", attempts: 15, last_status: 500 }),
    ]);
    const off = await manage("GET", `/webhooks/${id}`, { token: operator });
    expect(off.body).toMatchObject({
      enabled: false,
      disabled_reason: "no delivery for 24 hours; the last attempt: answered 500",
      failing_since: start.toISOString(),
    });

    const administrator = await db().user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const mail = await db().outboxMessage.findMany({ where: { kind: "webhook_disabled" } });
    expect(mail.map((message) => [message.recipient, message.language])).toEqual([
      ["optician@demo.test", localeOr(administrator.preferredLanguage)],
    ]);
    const text = openMailBody(SECRET_KEY, mail[0].sealedBody!).text;
    expect(text).toContain(receiver.url("/failing"));
    expect(text).toContain("answered 500");
    expect(text).toContain(`${ISSUER}/portal/company`);

    receiver.statuses.set("/failing", 204);
    const replay = `/webhooks/${id}/deliveries/${attempts[0].id}/replay`;
    expect((await manage("POST", replay, { token: operator })).response.status).toBe(409);
    const on = await manage("PATCH", `/webhooks/${id}`, {
      token: operator,
      body: { enabled: true },
      headers: { "if-match": off.response.headers.get("etag")! },
    });
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    const queued = await manage("POST", replay, { token: operator });
    expect([queued.response.status, queued.body.status]).toEqual([202, "queued"]);
    expect((await manage("POST", replay, { token: operator })).response.status).toBe(409);
    const again = workerAt(() => new Date());
    await again.deliverDue();
    await again.stop();
    const last = receiver.at("/failing").at(-1)!;
    expect([last.id, last.verified?.type]).toEqual([attempts[0].id, "user.deactivated"]);
    const delivered = (await manage("GET", `/webhooks/${id}/deliveries`, { token: operator })).body.items[0];
    expect(delivered).toMatchObject({ status: "delivered", attempts: 16, last_status: 204, last_error: null });
  });

  it("delivers webhooks from the cron route when no mail server is set, which leaves the mail queued", async () => {
    const id = await endpointAt("/cron");
    await deactivateSomeone();
    const mailBefore = await db().outboxMessage.count({ where: { status: "queued", kind: { not: "webhook" } } });
    const cron = await handleCronOutbox(
      new Request(`${ISSUER}/api/cron/outbox`, { method: "POST", headers: { authorization: "Bearer cron-secret" } }),
      context({ cronSecret: "cron-secret", mail: { ...loadConfig().mail, smtpUrl: null } }),
    );
    expect([cron.status, (await cron.json()).error]).toEqual([503, "mail_not_configured"]);
    expect(receiver.at("/cron").map((delivery) => delivery.verified?.type)).toEqual(["user.deactivated"]);
    expect((await attemptsOf(id)).map((message) => message.status)).toEqual(["sent"]);
    expect(await db().outboxMessage.count({ where: { status: "queued", kind: { not: "webhook" } } })).toBe(mailBefore);
  });

  it("drops the attempts of a removed endpoint, and fails those of one turned off without sending or mailing", async () => {
    const gone = await endpointAt("/gone");
    const off = await endpointAt("/off");
    await deactivateSomeone();
    expect((await manage("DELETE", `/webhooks/${gone}`, { token: operator })).response.status).toBe(204);
    const current = await manage("GET", `/webhooks/${off}`, { token: operator });
    await manage("PATCH", `/webhooks/${off}`, {
      token: operator,
      body: { enabled: false },
      headers: { "if-match": current.response.headers.get("etag")! },
    });
    const mailBefore = await db().outboxMessage.count({ where: { kind: "webhook_disabled" } });
    const worker = workerAt(() => new Date());
    await worker.deliverDue();
    await worker.stop();
    expect([...receiver.at("/gone"), ...receiver.at("/off")]).toEqual([]);
    expect(await attemptsOf(gone)).toEqual([]);
    expect((await attemptsOf(off)).map((message) => message.status)).toEqual(["failed"]);
    const [delivery] = (await manage("GET", `/webhooks/${off}/deliveries`, { token: operator })).body.items;
    expect(delivery).toMatchObject({ status: "failed", last_status: null, last_error: "the endpoint is turned off" });
    expect(await db().outboxMessage.count({ where: { kind: "webhook_disabled" } })).toBe(mailBefore);
  });
});
