/**
 * /manage/v1/outbox and the outbox page's forms, through the real handlers, database, outbox worker and an SMTP
 * server (tests/helpers/smtp-sink.ts): the list a page at a time without bodies; a test mail in the language asked
 * for that reaches the server; a failed notice queued again and delivered, while a failed invitation, whose one-time
 * link was erased, is refused with a 409 saying so; the page's forms doing and refusing the same through the same
 * rights functions. Scopes, company clients refused on every route, bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OUTBOX_ROUTES } from "@/lib/api/manage/outbox-routes";
import type { AdminFormOutcome } from "@/lib/forms/admin-form-problem";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { createOutboxWorker } from "@/lib/mail/outbox-worker";
import { smtpSender } from "@/lib/mail/smtp-sender";
import { COMPANY_MANAGE_SCOPES } from "@/lib/oauth/scopes";
import { prismaStores } from "@/lib/store/stores";
import { SECRET_KEY, signedInAgent, useOAuthService, type UserAgent } from "../../helpers/oauth-service";
import { manage, managementToken } from "../../helpers/manage-api";
import { expectEveryRouteRefused } from "../../helpers/manage-refusals";
import { runAdmin } from "../../helpers/admin-cli";
import { startSmtpSink, type SmtpSink } from "../../helpers/smtp-sink";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const stores = () => prismaStores(db());
let reader: string;
let writer: string;
let sink: SmtpSink;
/** What the mail server answers: accepted, or refused for good (a 5xx) while `refusing`. */
let refusing = false;

/** Delivers what is due now through the SMTP sink, as the server's worker does. */
async function deliver(): Promise<number> {
  const worker = createOutboxWorker({
    outbox: stores().outbox,
    secretKey: SECRET_KEY,
    sender: smtpSender(sink.url, "OptiGate <no-reply@optigate.test>"),
  });
  const sent = await worker.deliverDue();
  await worker.stop();
  return sent;
}

/** What a refused form of the page left for it (the sealed one-time cookie). */
function refusal(agent: UserAgent, response: Response) {
  expect(new URL(response.headers.get("location")!, "http://x").pathname).toBe("/admin/outbox");
  return unsealedCookieValue<AdminFormOutcome>(
    "optigate_admin_form",
    agent.cookies.get("optigate_admin_form"),
    SECRET_KEY,
  )!;
}

beforeAll(async () => {
  reader = (await managementToken(stores(), ["manage.outbox.read"])).token;
  writer = (await managementToken(stores(), ["manage.outbox.read", "manage.outbox.write"])).token;
  sink = await startSmtpSink(() => (refusing ? { code: 550, message: "mailbox unavailable" } : "accept"));
  await db().outboxMessage.deleteMany();
});
afterAll(() => sink?.close());

describe(`/manage/v1/outbox on ${testProvider()}`, () => {
  it("refuses company clients and other scopes on every route", async () => {
    const company = await managementToken(stores(), COMPANY_MANAGE_SCOPES, "demo-company-optician");
    await expectEveryRouteRefused(OUTBOX_ROUTES, company.token);
    await expectEveryRouteRefused(OUTBOX_ROUTES, (await managementToken(stores(), ["manage.clients.write"])).token);
    const test = await manage("POST", "/outbox/test-mail", { token: reader, body: { to: "x@example.com" } });
    expect(test.response.status).toBe(403);
    expect(await db().outboxMessage.count()).toBe(0);
  });

  it("queues a test mail in the language asked for, which the worker delivers to the mail server", async () => {
    const queued = await manage("POST", "/outbox/test-mail", {
      token: writer,
      body: { to: "Ops@Example.com", language: "de" },
    });
    expect(queued.response.status, JSON.stringify(queued.body)).toBe(202);
    expect(queued.body).toMatchObject({
      kind: "test_mail",
      recipient: "ops@example.com",
      language: "de",
      subject: "Testmail von OptiGate",
      status: "queued",
      resendable: false,
    });
    expect(await deliver()).toBe(1);
    const mail = sink.received.at(-1)!;
    expect(mail).toMatchObject({ to: "ops@example.com", subject: "Testmail von OptiGate" });
    expect(mail.text).toContain("Ein Betreiber hat sie geschickt");
    const listed = await manage("GET", "/outbox?status=sent", { token: reader });
    expect(listed.body.items[0]).toMatchObject({ id: queued.body.id, status: "sent", attempts: 1 });

    const english = await manage("POST", "/outbox/test-mail", { token: writer, body: { to: "ops@example.com" } });
    expect(english.body).toMatchObject({ language: "en", subject: "OptiGate test mail" });
    await deliver();
    const events = await db().auditEvent.findMany({ where: { type: "mail.test_queued" } });
    expect(events.map((event) => JSON.parse(event.details).messageId).sort()).toEqual(
      [queued.body.id, english.body.id].sort(),
    );
  });

  it("queues a failed notice again and delivers it; a failed invitation's one-time link cannot be resent", async () => {
    refusing = true;
    const notice = await manage("POST", "/outbox/test-mail", { token: writer, body: { to: "bounce@example.com" } });
    const invited = await runAdmin(db(), ["users", "invite", "gone@example.com", "--company", "demo-company-optician"]);
    expect(invited.code, invited.stderr).toBe(0);
    await deliver();
    refusing = false;

    const failed = (await manage("GET", "/outbox?status=failed", { token: reader })).body.items;
    const invitation = failed.find((message: { kind: string }) => message.kind === "invitation");
    expect(failed.find((message: { id: string }) => message.id === notice.body.id)).toMatchObject({
      resendable: true,
      last_error: expect.stringContaining("mailbox unavailable"),
    });
    expect(invitation).toMatchObject({ recipient: "gone@example.com", resendable: false });
    expect((await db().outboxMessage.findUnique({ where: { id: invitation.id } }))!.sealedBody).toBeNull();

    const refused = await manage("POST", `/outbox/${invitation.id}/retry`, { token: writer });
    expect(refused.response.status).toBe(409);
    expect(refused.body.detail).toMatch(
      /held a one-time link, erased when its delivery failed: it cannot be sent again/,
    );

    const retried = await manage("POST", `/outbox/${notice.body.id}/retry`, { token: writer });
    expect(retried.response.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ status: "queued", attempts: 0, resendable: false });
    const again = await manage("POST", `/outbox/${notice.body.id}/retry`, { token: writer });
    expect(again.response.status).toBe(409);
    expect(await deliver()).toBe(1);
    expect(sink.received.at(-1)).toMatchObject({ to: "bounce@example.com", subject: "OptiGate test mail" });
    expect((await manage("POST", "/outbox/nobody-here/retry", { token: writer })).response.status).toBe(404);
    expect(await db().auditEvent.count({ where: { type: "mail.retried" } })).toBe(1);
  });

  it("lists newest first a page at a time, with a cursor that holds its filter, never a body", async () => {
    for (const to of ["a@example.com", "b@example.com", "c@example.com"])
      await manage("POST", "/outbox/test-mail", { token: writer, body: { to } });
    const seen: { id: string; created_at: string }[] = [];
    let next: string | null = null;
    do {
      const query: string = next ? `&cursor=${encodeURIComponent(next)}` : "";
      const page = await manage("GET", `/outbox?limit=2${query}`, { token: reader });
      expect(page.response.status).toBe(200);
      seen.push(...page.body.items);
      next = page.body.next;
    } while (next);
    const all = await db().outboxMessage.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    expect(seen.map((message) => message.id)).toEqual(all.map((message) => message.id));
    expect(JSON.stringify(seen)).not.toMatch(/sealed|body|text|https?:\/\//i);

    const first = await manage("GET", "/outbox?limit=1", { token: reader });
    const otherFilter = await manage("GET", `/outbox?status=queued&cursor=${encodeURIComponent(first.body.next)}`, {
      token: reader,
    });
    expect(otherFilter.response.status).toBe(400);
    const queued = await manage("GET", "/outbox?status=queued", { token: reader });
    expect(queued.body.items.map((message: { recipient: string }) => message.recipient).sort()).toEqual([
      "a@example.com",
      "b@example.com",
      "c@example.com",
    ]);
    for (const query of ["status=lost", "limit=201", "cursor=forged", "colour=red"])
      expect((await manage("GET", `/outbox?${query}`, { token: reader })).response.status, query).toBe(400);
  });

  it("refuses bad test mail requests and queues nothing", async () => {
    const before = await db().outboxMessage.count();
    const cases: [Parameters<typeof manage>[2], number, RegExp?][] = [
      [{ token: writer, body: { to: "not an address" } }, 422, /is not an email address/],
      [{ token: writer, body: { to: "x@example.com", language: "tlh" } }, 422, /there is no language "tlh"/],
      [{ token: writer, body: { to: 7 } }, 400],
      [{ token: writer, body: { to: "x@example.com", cc: "y@example.com" } }, 400],
      [{ token: writer, body: "to=x", headers: { "content-type": "text/plain" } }, 415],
    ];
    for (const [options, status, detail] of cases) {
      const { response, body } = await manage("POST", "/outbox/test-mail", options);
      expect(response.status, JSON.stringify(options?.body)).toBe(status);
      if (detail) expect(body.detail).toMatch(detail);
    }
    expect(await db().outboxMessage.count()).toBe(before);
  });

  it("the outbox page's forms send a test mail and retry through the same rules", async () => {
    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    const bad = await admin.post("admin", "/interaction/admin", {
      action: "outbox-test-mail",
      to: "nobody",
      language: "fr",
    });
    expect(refusal(admin, bad)).toEqual({
      action: "outbox-test-mail",
      problem: { key: "testRecipient", field: "test-to", value: "nobody" },
    });
    const sent = await admin.post("admin", "/interaction/admin", {
      action: "outbox-test-mail",
      to: "page@example.com",
      language: "fr",
    });
    expect(sent.headers.get("location")).toBe("/admin/outbox?testQueued=1");
    const queued = await db().outboxMessage.findFirstOrThrow({ where: { recipient: "page@example.com" } });
    expect(queued).toMatchObject({ kind: "test_mail", language: "fr", subject: "E-mail de test d’OptiGate" });

    const invitation = await db().outboxMessage.findFirstOrThrow({ where: { kind: "invitation", status: "failed" } });
    const erased = await admin.post("admin", "/interaction/admin", {
      action: "outbox-retry",
      message_id: invitation.id,
    });
    expect(refusal(admin, erased).problem).toEqual({ key: "outboxOneTimeLink" });

    refusing = true;
    await deliver();
    refusing = false;
    expect((await db().outboxMessage.findUniqueOrThrow({ where: { id: queued.id } })).status).toBe("failed");
    const retried = await admin.post("admin", "/interaction/admin", { action: "outbox-retry", message_id: queued.id });
    expect(retried.headers.get("location")).toBe("/admin/outbox?retried=1");
    expect(await deliver()).toBeGreaterThanOrEqual(1);
    expect(sink.received.at(-1)).toMatchObject({ to: "page@example.com", subject: "E-mail de test d’OptiGate" });

    const optician = await signedInAgent("optician@demo.test", "Optician#2026");
    const forbidden = await optician.post("admin", "/interaction/admin", {
      action: "outbox-retry",
      message_id: queued.id,
    });
    expect(forbidden.status).toBe(403);
  });
});
