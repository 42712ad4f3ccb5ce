/**
 * The outbox worker against a real SMTP server (tests/helpers/smtp-sink.ts): the invitation mail arrives in the
 * invitation's language with a link that works; a refusal or a dropped connection is retried and delivered exactly
 * once; a permanent refusal marks the mail failed; a worker killed mid-delivery leaves the mail to the next one.
 */
import { spawn } from "node:child_process";
import { prismaStores } from "@/lib/store/stores";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutboxWorker, type OutboxWorker } from "@/lib/mail/outbox-worker";
import { smtpSender } from "@/lib/mail/smtp-sender";
import { runAdmin } from "../../helpers/admin-cli";
import { SECRET_KEY, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { startSmtpSink, type SmtpSink } from "../../helpers/smtp-sink";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const FROM = "OptiGate <no-reply@optigate.test>";
let sinks: SmtpSink[] = [];
let workers: OutboxWorker[] = [];

// Each test starts with an empty outbox (the demo data's invitation is waiting in it at first).
beforeEach(() => db().outboxMessage.deleteMany());
afterEach(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await Promise.all(sinks.map((sink) => sink.close()));
  [sinks, workers] = [[], []];
});

async function sink(answer?: SmtpSink["answer"]) {
  const started = await startSmtpSink(answer);
  sinks.push(started);
  return started;
}

function worker(smtp: SmtpSink, clock?: () => Date) {
  const created = createOutboxWorker({
    outbox: prismaStores(db()).outbox,
    secretKey: SECRET_KEY,
    sender: smtpSender(smtp.url, FROM),
    clock,
  });
  workers.push(created);
  return created;
}

async function invite(email: string, language = "en") {
  const args = ["users", "invite", email, "--company", "demo-company-optician", "--language", language];
  return JSON.parse((await runAdmin(db(), args)).stdout) as { invitation_url: string };
}

const inAnHour = () => new Date(Date.now() + 3_600_000);

describe(`mail delivery on ${testProvider()}`, () => {
  it("delivers the invitation in German with a link that lets the person join", async () => {
    const smtp = await sink();
    const { invitation_url } = await invite("greta@example.de", "de");
    expect(await worker(smtp).deliverDue()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail).toMatchObject({
      to: "greta@example.de",
      from: `"OptiGate" <no-reply@optigate.test>`,
      subject: "Ihre Einladung zu Augenoptik Demo GmbH bei OptiGate",
    });
    expect(mail.headers.get("auto-submitted")).toBe("auto-generated");
    expect(mail.text).toMatch(/Einladung annehmen/);
    const link = /https?:\/\/\S+\/invitation\?\S+/.exec(mail.text)![0];
    expect(link).toBe(invitation_url);
    expect(mail.html).toContain(`href="${link.replace(/&/g, "&amp;")}"`);

    const joined = await new UserAgent().post("invitation", "/interaction/invitation", {
      token: new URL(link).searchParams.get("token")!,
      given_name: "Greta",
      family_name: "Glas",
      password: "brille fassung glas rahmen",
    });
    expect(joined.headers.get("location")).toBe("/portal/applications");
    const stored = await db().outboxMessage.findFirstOrThrow({ where: { recipient: "greta@example.de" } });
    expect(stored).toMatchObject({ status: "sent", sealedBody: null, attempts: 1 });
    expect(await worker(smtp).deliverDue()).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it("keeps a refused or cut-off mail queued and delivers it once when the server accepts again", async () => {
    const answers: ReturnType<SmtpSink["answer"]>[] = [{ code: 451, message: "try later" }, "drop", "accept"];
    const smtp = await sink((attempt) => answers[attempt - 1]);
    await invite("retry@example.com");
    let now = new Date();
    const retrying = worker(smtp, () => now);
    expect(await retrying.deliverDue()).toBe(0);
    let stored = await db().outboxMessage.findFirstOrThrow({ where: { recipient: "retry@example.com" } });
    expect(stored).toMatchObject({ status: "queued", attempts: 1, lastError: expect.stringMatching(/451/) });
    expect(stored.nextAttemptAt.getTime() - now.getTime()).toBe(30_000);
    expect(await retrying.deliverDue()).toBe(0);
    expect(smtp.offered).toBe(1);

    now = new Date(now.getTime() + 31_000);
    expect(await retrying.deliverDue()).toBe(0);
    stored = await db().outboxMessage.findFirstOrThrow({ where: { recipient: "retry@example.com" } });
    expect(stored).toMatchObject({ status: "queued", attempts: 2 });
    expect(stored.nextAttemptAt.getTime() - now.getTime()).toBe(60_000);

    now = new Date(now.getTime() + 61_000);
    expect(await retrying.deliverDue()).toBe(1);
    expect(smtp.received.map((mail) => mail.to)).toEqual(["retry@example.com"]);
    expect(smtp.offered).toBe(3);
    expect(await db().outboxMessage.findFirstOrThrow({ where: { recipient: "retry@example.com" } })).toMatchObject({
      status: "sent",
      attempts: 3,
    });
  });

  it("marks a mail failed on a permanent refusal and does not try again", async () => {
    const smtp = await sink(() => ({ code: 550, message: "no such mailbox" }));
    await invite("gone@example.com");
    const failing = worker(smtp, inAnHour);
    expect(await failing.deliverDue()).toBe(0);
    expect(await failing.deliverDue()).toBe(0);
    expect(smtp.offered).toBe(1);
    expect(await db().outboxMessage.findFirstOrThrow({ where: { recipient: "gone@example.com" } })).toMatchObject({
      status: "failed",
      lastError: expect.stringMatching(/550/),
    });
  });

  it("delivers, once, the mail a killed worker was sending, when its claim has run out", async () => {
    const smtp = await sink((attempt) => (attempt === 1 ? "hold" : "accept"));
    await invite("crash@example.com");
    const child = spawn(process.execPath, ["--import", "tsx", "tests/integration/mail/worker-process.ts"], {
      env: { ...process.env, NODE_ENV: "test", SMTP_URL: smtp.url, HOLD_MS: "60000" },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    for (let waited = 0; smtp.offered === 0 && waited < 20_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(smtp.offered).toBe(1);
    child.kill("SIGKILL");
    await exited;
    expect(smtp.received).toHaveLength(0);

    // While the dead worker's claim holds, nobody takes the mail; afterwards the next worker does.
    expect(await worker(smtp).deliverDue()).toBe(0);
    expect(await worker(smtp, () => new Date(Date.now() + 61_000)).deliverDue()).toBe(1);
    expect(smtp.received.map((mail) => mail.to)).toEqual(["crash@example.com"]);
    expect(smtp.offered).toBe(2);
  }, 30_000);
});
