/**
 * The webhook section of /portal/company (issue 48) through the real form route /interaction/company/webhooks with
 * signed-in agents: a company's administrator adds an endpoint (its secret shown once) that gets her company's events
 * and keeps her company's endpoints alone; another company's administrator neither sees them nor acts on them (not
 * found, nothing written); the page's view functions give a plain user, a visitor and a company administrator on the
 * operator's pages nothing, and the operator nothing of a company's section; the delivery log pages.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { actorOfSessionCookie, type Actor } from "@/lib/rights/actor";
import { companyWebhooksView, operatorWebhookView, platformWebhooksView } from "@/lib/rights/webhook-pages";
import { getServiceContext } from "@/lib/service-context";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { signedInAgent, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";
import { postAdminWebhooks, postCompanyWebhooks } from "../../helpers/webhook-forms";

const service = useOAuthService();
const db = () => service().database.db;
const OPTICIAN = ["optician@demo.test", "Optician#2026"] as const;
const COMPANY = "demo-company-optician";
const LENS = "demo-company-lens";

let admin: UserAgent;
let lensAdmin: UserAgent;
let plainUser: UserAgent;
let operator: UserAgent;
let endpointId: string;

const actorOf = (agent?: UserAgent): Promise<Actor> =>
  actorOfSessionCookie(getServiceContext(), agent?.cookies.get(SESSION_COOKIE));

/** A person of a company, with the optician's password. */
async function person(email: string, companyId: string, role: "admin" | "user") {
  const { passwordHash } = await db().user.findUniqueOrThrow({ where: { email: OPTICIAN[0] } });
  await db().user.create({ data: { email, companyId, role, givenName: "Test", familyName: "Person", passwordHash } });
}

async function signedInPerson(email: string, companyId: string, role: "admin" | "user") {
  await person(email, companyId, role);
  return signedInAgent(email, OPTICIAN[1]);
}

/** Everything the forms could write. */
const written = async () => ({
  endpoints: await db().webhookEndpoint.findMany({ orderBy: { id: "asc" } }),
  deliveries: await db().webhookDelivery.findMany({ orderBy: { id: "asc" } }),
  outbox: await db().outboxMessage.count(),
  audit: await db().auditEvent.count({ where: { type: { startsWith: "webhook." } } }),
});

beforeAll(async () => {
  admin = await signedInAgent(...OPTICIAN);
  operator = await signedInAgent("admin@demo.test", "Admin#2026");
  lensAdmin = await signedInPerson("boss@lens.example", LENS, "admin");
  plainUser = await signedInPerson("plain@optik-demo.example", COMPANY, "user");
  await person("staff@optik-demo.example", COMPANY, "user");
});

describe(`a company's webhooks on ${testProvider()}`, () => {
  it("are added by its administrator, who sees the secret once, for the company's events only", async () => {
    const added = await postCompanyWebhooks(admin, {
      action: "webhook-add",
      url: "https://erp.optik-demo.example/hooks",
      description: "ERP",
      event: ["user.deactivated"],
    });
    expect(added.response.status).toBe(303);
    endpointId = added.outcome!.endpointId!;
    expect(added.location).toBe(`/portal/company#webhook-${endpointId}`);
    expect(added.outcome).toEqual({ action: "webhook-add", endpointId, secret: expect.stringMatching(/^whsec_/) });
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).toMatchObject({
      companyId: COMPANY,
      registeredByOperator: false,
    });

    const view = await companyWebhooksView(await actorOf(admin));
    expect(view!.endpoints.map(({ endpoint }) => endpoint.url)).toEqual(["https://erp.optik-demo.example/hooks"]);
    expect(JSON.stringify(view)).not.toContain(added.outcome!.secret!.slice(6));

    // A company's endpoint never reaches the loopback, whatever OUTBOUND_ALLOW opens to the operator's.
    const loopback = await postCompanyWebhooks(admin, {
      action: "webhook-add",
      url: "https://127.0.0.1:8443/hooks",
      event: "user.created",
    });
    expect([loopback.location, loopback.outcome?.problem]).toEqual(["/portal/company#webhook-new", "invalid_url"]);
    expect(loopback.outcome!.detail).toMatch(/public address/);
  });

  it("log the company's deliveries, which only its administrators see, a page at a time", async () => {
    // An event of the other company, and one of the optician's own: only hers reaches her endpoint.
    await lensAdmin.post("company", "/interaction/company", { action: "deactivate", email: "supplier@demo.test" });
    await admin.post("company", "/interaction/company", { action: "deactivate", email: "staff@optik-demo.example" });
    expect(await db().user.count({ where: { active: false } })).toBe(2);
    const [{ log }] = (await companyWebhooksView(await actorOf(admin)))!.endpoints;
    expect(log.deliveries.map((delivery) => [delivery.eventType, delivery.status])).toEqual([
      ["user.deactivated", "queued"],
    ]);
    // A delivery that waits is not sent twice.
    const replay = await postCompanyWebhooks(admin, {
      action: "webhook-replay",
      endpoint_id: endpointId,
      delivery_id: log.deliveries[0].id,
    });
    expect([replay.location, replay.outcome?.problem]).toEqual([
      `/portal/company#webhook-${endpointId}`,
      "not_replayable",
    ]);

    const start = Date.UTC(2020, 0, 1);
    await db().webhookDelivery.createMany({
      data: Array.from({ length: 12 }, (_, index) => ({
        id: `msg_page${String(index).padStart(2, "0")}`,
        endpointId,
        eventType: "user.deactivated",
        payload: "{}",
        status: "delivered",
        attempts: 1,
        lastStatus: 204,
        createdAt: new Date(start + index * 1000),
        queuedAt: new Date(start + index * 1000),
      })),
    });
    const first = (await companyWebhooksView(await actorOf(admin)))!.endpoints[0].log;
    expect(first.deliveries.length).toBe(10);
    expect([first.deliveries[1].id, first.paged, first.older]).toEqual(["msg_page11", false, expect.any(String)]);
    const next = (await companyWebhooksView(await actorOf(admin), { endpointId, older: first.older }))!.endpoints[0]
      .log;
    expect([next.deliveries.map((delivery) => delivery.id), next.paged, next.older]).toEqual([
      ["msg_page02", "msg_page01", "msg_page00"],
      true,
      undefined,
    ]);
    const bogus = await companyWebhooksView(await actorOf(admin), { endpointId, older: "yesterday" });
    expect(bogus!.endpoints[0].log.deliveries[0].id).toBe(first.deliveries[0].id);
  });

  it("are not another company's administrator's to see or act on: not found, nothing written", async () => {
    const own = await postCompanyWebhooks(lensAdmin, {
      action: "webhook-add",
      url: "https://hooks.lens.example/",
      event: ["user.created"],
    });
    expect(own.outcome).toMatchObject({ action: "webhook-add", secret: expect.any(String) });
    const lensView = await companyWebhooksView(await actorOf(lensAdmin));
    expect(lensView!.endpoints.map(({ endpoint }) => endpoint.id)).toEqual([own.outcome!.endpointId]);
    expect(JSON.stringify(lensView)).not.toContain(endpointId);
    expect(JSON.stringify(lensView)).not.toContain("optik-demo");

    const before = await written();
    const [delivery] = before.deliveries.filter((each) => each.endpointId === endpointId);
    const forms: Record<string, string | string[]>[] = [
      { action: "webhook-change", url: "https://evil.example/", event: "user.created" },
      { action: "webhook-disable" },
      { action: "webhook-enable" },
      { action: "webhook-rotate" },
      { action: "webhook-replay", delivery_id: delivery.id },
      { action: "webhook-remove" },
    ];
    for (const form of forms) {
      const refused = await postCompanyWebhooks(lensAdmin, { ...form, endpoint_id: endpointId });
      expect([refused.location, refused.outcome?.problem], form.action as string).toEqual([
        "/portal/company#webhooks",
        "not_found",
      ]);
      expect(refused.outcome?.secret).toBeUndefined();
    }
    expect(await written()).toEqual(before);
  });

  it("give a plain user, a visitor and the operator nothing of a company's, and company people nothing of the operator's", async () => {
    const before = await written();
    for (const [who, agent] of [
      ["plain user", plainUser],
      ["operator", operator],
    ] as const) {
      for (const action of ["webhook-add", "webhook-disable", "webhook-remove", "webhook-rotate"]) {
        const refused = await postCompanyWebhooks(agent, {
          action,
          endpoint_id: endpointId,
          url: "https://x.example/",
          event: "user.created",
        });
        expect([refused.response.status, refused.outcome], `${who} ${action}`).toEqual([403, undefined]);
      }
    }
    const visitor = await postCompanyWebhooks(new UserAgent(), { action: "webhook-remove", endpoint_id: endpointId });
    expect([visitor.response.status, visitor.location]).toEqual([303, "/login?returnUrl=%2Fportal%2Fcompany"]);
    for (const agent of [admin, plainUser, new UserAgent()]) {
      const refused = await postAdminWebhooks(agent, { action: "webhook-remove", endpoint_id: endpointId });
      expect([refused.response.status, refused.outcome]).toEqual([403, undefined]);
    }
    expect(await written()).toEqual(before);

    // The pages' view functions: the company section for its administrators, the operator's pages for operators.
    await expect(companyWebhooksView(await actorOf(plainUser))).rejects.toMatchObject({ code: "forbidden" });
    await expect(companyWebhooksView(await actorOf())).rejects.toMatchObject({ code: "sign_in_required" });
    expect(await companyWebhooksView(await actorOf(operator))).toBeNull();
    for (const agent of [admin, lensAdmin, plainUser, undefined]) {
      const actor = await actorOf(agent);
      const code = agent ? "forbidden" : "sign_in_required";
      await expect(platformWebhooksView(actor)).rejects.toMatchObject({ code });
      await expect(operatorWebhookView(actor, endpointId)).rejects.toMatchObject({ code });
    }
    // The operator sees a company's endpoint on its own page, and none of them in the platform's list.
    expect((await operatorWebhookView(await actorOf(operator), endpointId))!.endpoint.companyId).toBe(COMPANY);
    expect((await platformWebhooksView(await actorOf(operator))).endpoints).toEqual([]);
  });

  it("are turned off and on, get a new secret and are removed by their administrator", async () => {
    for (const action of ["webhook-disable", "webhook-enable"]) {
      const done = await postCompanyWebhooks(admin, { action, endpoint_id: endpointId });
      expect([done.location, done.outcome]).toEqual([`/portal/company#webhook-${endpointId}`, { action, endpointId }]);
    }
    const rotated = await postCompanyWebhooks(admin, { action: "webhook-rotate", endpoint_id: endpointId });
    expect(rotated.outcome).toMatchObject({ endpointId, secret: expect.stringMatching(/^whsec_/) });
    const unknown = await postCompanyWebhooks(admin, { action: "webhook-explode", endpoint_id: endpointId });
    expect(unknown.outcome).toEqual({ action: "", problem: "unknown_action" });
    const removed = await postCompanyWebhooks(admin, { action: "webhook-remove", endpoint_id: endpointId });
    expect([removed.location, removed.outcome]).toEqual([
      "/portal/company#webhooks",
      { action: "webhook-remove", endpointId },
    ]);
    expect(await db().webhookEndpoint.count({ where: { companyId: COMPANY } })).toBe(0);
    expect((await companyWebhooksView(await actorOf(admin)))!.endpoints).toEqual([]);
  });
});
