/**
 * What /metrics counts of the mail outbox and of tokens, read through the real endpoint before and after real flows:
 * mail queued, accepted by a real SMTP server (tests/helpers/smtp-sink.ts) or given up on, by kind; the age of the
 * oldest waiting mail, NaN without failing the scrape when the database refuses or does not answer; and the tokens
 * each grant hands out, the implicit flow's at the authorization endpoint.
 */
import { createServer, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeDb, createPrismaClient, type Db } from "@/lib/db/prisma";
import { getConfig } from "@/lib/config";
import { METRICS_DATABASE_TIMEOUT_MS } from "@/lib/config/policy";
import { createOutboxWorker } from "@/lib/mail/outbox-worker";
import { smtpSender } from "@/lib/mail/smtp-sender";
import { logger } from "@/lib/observability/logger";
import { handleMetricsRequest } from "@/lib/server/metrics-endpoint";
import { serviceContextFor } from "@/lib/service-context";
import { forgetClient } from "@/lib/store/client-store";
import { prismaStores } from "@/lib/store/stores";
import { runAdmin } from "../../helpers/admin-cli";
import { METRICS_TOKEN, metricsMovedBy, scrapeMetrics } from "../../helpers/metrics-scrape";
import {
  authorizeWithConsent,
  basic,
  call,
  callbackParams,
  formRequest,
  ISSUER,
  refreshDemoWeb,
  SECRET_KEY,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { userTokens } from "../../helpers/platform-api";
import { startSmtpSink, type SmtpSink } from "../../helpers/smtp-sink";
import { testProvider } from "../../helpers/test-database";

// Read when the service's configuration is first loaded, by the first request.
process.env.METRICS_TOKEN = METRICS_TOKEN;
const service = useOAuthService();
const db = () => service().database.db;
const OLDEST = "optigate_mail_oldest_waiting_seconds";
let sinks: SmtpSink[] = [];
afterEach(async () => {
  await Promise.all(sinks.map((sink) => sink.close()));
  sinks = [];
});

/** Delivers what is due to an SMTP server that answers each message with `answer`; how many were sent. */
async function deliver(answer: SmtpSink["answer"]): Promise<{ sent: number; smtp: SmtpSink }> {
  const smtp = await startSmtpSink(answer);
  sinks.push(smtp);
  const worker = createOutboxWorker({
    outbox: prismaStores(db()).outbox,
    secretKey: SECRET_KEY,
    sender: smtpSender(smtp.url, "OptiGate <no-reply@optigate.test>"),
  });
  const sent = await worker.deliverDue();
  await worker.stop();
  return { sent, smtp };
}

const invite = (email: string) =>
  runAdmin(db(), ["users", "invite", email, "--company", "demo-company-optician", "--language", "en"]);

/** A scrape of the real handler over stores on `client`, and how long it took. */
async function scrapeOver(client: Db) {
  const started = Date.now();
  const response = await handleMetricsRequest(
    new Request(`${ISSUER}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
    serviceContextFor(prismaStores(client), getConfig()),
  );
  return { status: response.status, text: await response.text(), seconds: (Date.now() - started) / 1000 };
}

/** A TCP server that takes connections and never says a word, as a hung database does; `stop` drops them. */
async function silentServer() {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => void sockets.add(socket));
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as { port: number };
  const stop = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((closed) => server.close(() => closed()));
  };
  return { port, stop };
}

describe(`mail metrics on ${testProvider()}`, () => {
  it("count mail queued and sent by kind, and tell how long the oldest mail has waited", async () => {
    await db().outboxMessage.deleteMany();
    expect((await scrapeMetrics()).value(OLDEST)).toBe(0);
    const queued = await metricsMovedBy(() => invite("mia@example.com"));
    expect(queued("optigate_mail_queued_total")).toEqual({ "kind=invitation": 1 });
    await db().outboxMessage.updateMany({ data: { createdAt: new Date(Date.now() - 3_600_000) } });
    const age = (await scrapeMetrics()).value(OLDEST);
    expect(age >= 3600 && age < 3660, String(age)).toBe(true);

    const delivered = await metricsMovedBy(async () => {
      const { smtp } = await deliver(() => "accept");
      // The person joins through the mailed link: a sign-in by email link.
      const token = new URL(/https?:\/\/\S+\/invitation\?\S+/.exec(smtp.received[0].text)![0]).searchParams.get(
        "token",
      );
      const joined = await new UserAgent().post("invitation", "/interaction/invitation", {
        token: token!,
        given_name: "Mia",
        family_name: "Metric",
        password: "brille fassung glas rahmen",
      });
      expect(joined.headers.get("location")).toBe("/portal/applications");
    });
    expect(delivered("optigate_mail_sent_total")).toEqual({ "kind=invitation": 1 });
    expect(delivered("optigate_mail_failed_total")).toEqual({});
    expect(delivered("optigate_sign_ins_total")).toEqual({ "factor=email_link,result=success": 1 });
    expect((await scrapeMetrics()).value(OLDEST)).toBe(0);
  });

  it("count mail the server refuses for good as failed, and a refusal for now as neither", async () => {
    await invite("later@example.com");
    const retried = await metricsMovedBy(() => deliver(() => ({ code: 451, message: "try later" })));
    await invite("gone@example.com");
    // Both are due: the one put off an instant ago is taken again only when its pause is over.
    await db().outboxMessage.updateMany({ data: { nextAttemptAt: new Date() } });
    const failed = await metricsMovedBy(() => deliver(() => ({ code: 550, message: "no such mailbox" })));
    expect([retried("optigate_mail_sent_total"), retried("optigate_mail_failed_total")]).toEqual([{}, {}]);
    expect(failed("optigate_mail_failed_total")).toEqual({ "kind=invitation": 2 });
    expect(failed("optigate_mail_sent_total")).toEqual({});
  });

  it("leave the oldest mail's age NaN when the database refuses or does not answer, and serve everything else", async () => {
    const warn = vi.spyOn(logger, "warn");
    const gone = await silentServer();
    await gone.stop(); // nothing listens on its port now: connections are refused
    const hung = await silentServer();
    const [refusing, hanging] = [gone.port, hung.port].map((port) =>
      createPrismaClient({ provider: "postgresql", url: `postgresql://nobody@127.0.0.1:${port}/none` }),
    );
    try {
      const scrapes = [await scrapeOver(refusing), await scrapeOver(hanging)];
      for (const { status, text } of scrapes) {
        expect(status).toBe(200);
        expect(text).toMatch(/^optigate_mail_oldest_waiting_seconds NaN$/im);
        expect(text).toMatch(/^optigate_process_resident_memory_bytes \d+$/m);
      }
      // The silent one is given up on after the time allowed, not when the scraper would give up.
      const waited = METRICS_DATABASE_TIMEOUT_MS / 1000;
      expect(scrapes[1].seconds >= waited * 0.9 && scrapes[1].seconds < waited + 2, String(scrapes[1].seconds)).toBe(
        true,
      );
      const told = warn.mock.calls.filter(([, message]) => message === "metrics: the outbox could not be read");
      expect(told).toHaveLength(2);
    } finally {
      warn.mockRestore();
      await hung.stop();
      await Promise.all([refusing, hanging].map(closeDb));
    }
  });
});

describe(`token metrics on ${testProvider()}`, () => {
  it("count the tokens each grant hands out: a refresh token handed back is none, the implicit flow's are", async () => {
    const implicit = {
      client_id: "demo-implicit",
      redirect_uri: "http://localhost:5174/callback",
      scope: "openid",
      state: "s",
      nonce: "n",
    };
    const moved = await metricsMovedBy(async () => {
      const tokens = await userTokens("optician@demo.test", "Optician#2026", "openid offline_access");
      // demo-web keeps its refresh token (the reuse policy), then rotates it.
      expect((await (await refreshDemoWeb(tokens.refresh_token!)).json()).refresh_token).toBe(tokens.refresh_token);
      await db().client.update({ where: { id: "demo-web" }, data: { refreshTokenPolicy: "rotate" } });
      forgetClient("demo-web");
      expect((await (await refreshDemoWeb(tokens.refresh_token!)).json()).refresh_token).not.toBe(tokens.refresh_token);
      const credentials = formRequest(
        "/connect/token",
        { grant_type: "client_credentials" },
        { authorization: basic("demo-backend", "demo-backend-secret") },
      );
      expect((await call("token", credentials)).status).toBe(200);
      const { response } = await authorizeWithConsent(new UserAgent(), {
        ...implicit,
        response_type: "id_token token",
      });
      expect(callbackParams(response).get("access_token")).toBeTruthy();
    });
    expect(moved("optigate_tokens_issued_total")).toEqual({
      "grant=authorization_code,token=access_token": 1,
      "grant=authorization_code,token=id_token": 1,
      "grant=authorization_code,token=refresh_token": 1,
      "grant=refresh_token,token=access_token": 2,
      "grant=refresh_token,token=id_token": 2,
      "grant=refresh_token,token=refresh_token": 1,
      "grant=client_credentials,token=access_token": 1,
      "grant=implicit,token=access_token": 1,
      "grant=implicit,token=id_token": 1,
    });
    expect(moved("optigate_token_requests_total")).toEqual({
      "grant=authorization_code,result=issued": 1,
      "grant=client_credentials,result=issued": 1,
      "grant=refresh_token,result=issued": 2,
    });
  });
});
