/**
 * Mail and webhooks in separate lanes of the outbox: with many deliveries waiting for a receiver that accepts the
 * connection and never answers (a tarpit), an invitation queued after them reaches a real SMTP server at once, from a
 * worker's pass, from a running worker and from the cron route; the webhooks go out WEBHOOK_CONCURRENCY at a time, so
 * each batch costs one WEBHOOK_TIMEOUT_MS, not one per delivery.
 */
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "@/lib/config";
import { WEBHOOK_CONCURRENCY, WEBHOOK_TIMEOUT_MS } from "@/lib/config/policy";
import { seal } from "@/lib/crypto/secret-box";
import { createOutboxWorker, type OutboxWorker } from "@/lib/mail/outbox-worker";
import { smtpSender } from "@/lib/mail/smtp-sender";
import { handleCronOutbox } from "@/lib/server/cron-endpoints";
import { outboxTransports } from "@/lib/server/mail-composers";
import { serviceContextFor } from "@/lib/service-context";
import { prismaStores } from "@/lib/store/stores";
import { runAdmin } from "../../helpers/admin-cli";
import { ISSUER, SECRET_KEY, useOAuthService } from "../../helpers/oauth-service";
import { startSmtpSink, type SmtpSink } from "../../helpers/smtp-sink";
import { testProvider } from "../../helpers/test-database";

process.env.OUTBOUND_ALLOW = "127.0.0.0/8";

const service = useOAuthService();
const db = () => service().database.db;
const stores = () => prismaStores(db());
const context = (config: Partial<Config> = {}) => serviceContextFor(stores(), { ...loadConfig(), ...config });
const OPTICIAN = "demo-company-optician";
const ENDPOINTS = 5;
const CRON_SECRET = "cron-secret-0123456789-abcdef";

/** A server that accepts connections and never answers; when each came, and how many were open at most. */
interface Tarpit {
  url: string;
  connections: number[];
  open: number;
  maxOpen: number;
  close(): void;
}

async function startTarpit(): Promise<Tarpit> {
  const sockets = new Set<Socket>();
  const tarpit: Tarpit = { url: "", connections: [], open: 0, maxOpen: 0, close: () => undefined };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    tarpit.connections.push(Date.now());
    tarpit.maxOpen = Math.max(tarpit.maxOpen, ++tarpit.open);
    // Read and drop the request, so that the client's hang-up is seen; never answer.
    socket.resume();
    socket.on("close", () => (sockets.delete(socket), tarpit.open--));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  tarpit.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tarpit.close = () => {
    sockets.forEach((socket) => socket.destroy());
    server.close();
  };
  return tarpit;
}

let tarpit: Tarpit;
let sink: SmtpSink;
/** When the SMTP server was offered each message. */
let mailAt: number[];
let workers: OutboxWorker[];
let invited = 0;

beforeEach(async () => {
  await db().outboxMessage.deleteMany();
  await db().webhookDelivery.deleteMany();
  await db().webhookEndpoint.deleteMany();
  [tarpit, mailAt, workers] = [await startTarpit(), [], []];
  sink = await startSmtpSink(() => (mailAt.push(Date.now()), "accept"));
  const secret = seal(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, SECRET_KEY, "webhook-secret");
  for (let index = 0; index < ENDPOINTS; index++) {
    const id = `ep_tarpit_${index}`;
    const endpoint = { id, companyId: OPTICIAN, url: `${tarpit.url}/${index}`, description: "", secretSealed: secret };
    const events = ["user.deactivated" as const];
    await stores().webhooks.addEndpoint({ ...endpoint, events, registeredByOperator: true }, 20, new Date());
  }
});
afterEach(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  tarpit.close();
  await sink.close();
});

/** `count` webhook deliveries to the tarpit, each endpoint getting the same number of user.deactivated events. */
async function queueTarpitDeliveries(count: number): Promise<void> {
  const { id } = await db().user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
  for (let event = 0; event < count / ENDPOINTS; event++)
    await stores().audit.record({ type: "user.deactivated", details: { subjectUserId: id } });
  expect(await db().outboxMessage.count({ where: { kind: "webhook", status: "queued" } })).toBe(count);
}

/** An invitation mail, queued after the deliveries; its address. */
async function inviteSomeone(): Promise<string> {
  const email = `lane-${++invited}@shop.example`;
  expect((await runAdmin(db(), ["users", "invite", email, "--company", OPTICIAN])).code).toBe(0);
  return email;
}

function worker(passBudgetMs?: number): OutboxWorker {
  const made = createOutboxWorker({
    outbox: stores().outbox,
    secretKey: SECRET_KEY,
    sender: smtpSender(sink.url, "OptiGate <no-reply@optigate.test>"),
    transports: outboxTransports(context()),
    pollMs: 60_000,
    passBudgetMs,
  });
  workers.push(made);
  return made;
}

async function until(condition: () => boolean, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const spread = (times: number[]) => Math.max(...times) - Math.min(...times);

describe(`outbox lanes on ${testProvider()}`, () => {
  it("sends the mail before the webhooks in a pass, and the webhooks a batch at a time", async () => {
    const deliveries = 2 * WEBHOOK_CONCURRENCY;
    await queueTarpitDeliveries(deliveries);
    const email = await inviteSomeone();
    const started = Date.now();
    expect(await worker().deliverDue()).toBe(1);
    const took = Date.now() - started;

    expect(sink.received.map((mail) => mail.to)).toEqual([email]);
    expect(mailAt[0] - started).toBeLessThan(WEBHOOK_TIMEOUT_MS / 2);
    expect(mailAt[0]).toBeLessThanOrEqual(tarpit.connections[0]);
    // Two batches, each waiting one timeout: not one timeout per delivery.
    expect(tarpit.connections).toHaveLength(deliveries);
    expect(tarpit.maxOpen).toBe(WEBHOOK_CONCURRENCY);
    const [first, second] = [
      tarpit.connections.slice(0, WEBHOOK_CONCURRENCY),
      tarpit.connections.slice(WEBHOOK_CONCURRENCY),
    ];
    expect(spread(first)).toBeLessThan(WEBHOOK_TIMEOUT_MS / 2);
    expect(Math.min(...second) - Math.min(...first)).toBeGreaterThanOrEqual(WEBHOOK_TIMEOUT_MS - 250);
    expect(took).toBeLessThan(3 * WEBHOOK_TIMEOUT_MS);

    // Each delivery waits for its next attempt, which this pass did not make.
    const messages = await db().outboxMessage.findMany({ where: { kind: "webhook" } });
    expect(messages.map((message) => [message.status, message.attempts, message.lastError])).toEqual(
      Array(deliveries).fill(["queued", 1, `no answer within ${WEBHOOK_TIMEOUT_MS} ms`]),
    );
    expect(messages.every((message) => message.nextAttemptAt.getTime() > started + 25_000)).toBe(true);
  }, 60_000);

  it("a pass claims no new batch once its time is up: the rest waits for the next pass", async () => {
    await queueTarpitDeliveries(2 * WEBHOOK_CONCURRENCY);
    const email = await inviteSomeone();
    expect(await worker(2_000).deliverDue()).toBe(1);
    expect(sink.received.map((mail) => mail.to)).toEqual([email]);
    expect(tarpit.connections).toHaveLength(WEBHOOK_CONCURRENCY);
    const attempts = (await db().outboxMessage.findMany({ where: { kind: "webhook" } })).map((m) => m.attempts);
    expect(attempts.sort()).toEqual([...Array(WEBHOOK_CONCURRENCY).fill(0), ...Array(WEBHOOK_CONCURRENCY).fill(1)]);
  }, 60_000);

  it("a running worker sends mail while its webhook lane waits for the tarpit", async () => {
    await queueTarpitDeliveries(2 * WEBHOOK_CONCURRENCY);
    const running = worker();
    running.start();
    await until(() => tarpit.open === WEBHOOK_CONCURRENCY, WEBHOOK_TIMEOUT_MS / 2);
    const queuedAt = Date.now();
    const email = await inviteSomeone();
    running.wake();
    await until(() => sink.received.length === 1, WEBHOOK_TIMEOUT_MS / 2);
    expect(sink.received[0].to).toBe(email);
    // The first webhook batch still waits for its answers.
    expect(tarpit.connections).toHaveLength(WEBHOOK_CONCURRENCY);
    expect(tarpit.open).toBe(WEBHOOK_CONCURRENCY);
    expect(mailAt[0] - queuedAt).toBeLessThan(WEBHOOK_TIMEOUT_MS / 2);
  }, 60_000);

  it("the cron route sends the mail first and ends after one timeout a webhook batch", async () => {
    await queueTarpitDeliveries(WEBHOOK_CONCURRENCY);
    const email = await inviteSomeone();
    const started = Date.now();
    const answer = await handleCronOutbox(
      new Request(`${ISSUER}/api/cron/outbox`, { method: "POST", headers: { authorization: `Bearer ${CRON_SECRET}` } }),
      context({ cronSecret: CRON_SECRET, mail: { ...loadConfig().mail, smtpUrl: sink.url } }),
    );
    const took = Date.now() - started;
    expect([answer.status, await answer.json()]).toEqual([200, { sent: 1 }]);
    expect(sink.received.map((mail) => mail.to)).toEqual([email]);
    expect(mailAt[0]).toBeLessThanOrEqual(tarpit.connections[0]);
    expect(tarpit.connections).toHaveLength(WEBHOOK_CONCURRENCY);
    expect(spread(tarpit.connections)).toBeLessThan(WEBHOOK_TIMEOUT_MS / 2);
    expect(took).toBeLessThan(2 * WEBHOOK_TIMEOUT_MS);
  }, 60_000);
});
