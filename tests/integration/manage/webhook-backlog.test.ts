/**
 * The cap on deliveries waiting for one endpoint (MAX_WAITING_WEBHOOK_DELIVERIES): an event beyond it queues no
 * attempt but shows in the endpoint's delivery log as failed, saying why; once deliveries leave the queue, events are
 * queued again. Other endpoints are not affected.
 */
import { describe, expect, it } from "vitest";
import { MAX_WAITING_WEBHOOK_DELIVERIES } from "@/lib/config/policy";
import { BACKLOG_FULL_ERROR } from "@/lib/store/webhook-queue";
import { prismaStores } from "@/lib/store/stores";
import { manage, managementToken } from "../../helpers/manage-api";
import { useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const OPTICIAN = "demo-company-optician";
const SCOPES = ["manage.company.users.write", "manage.company.webhooks.read", "manage.company.webhooks.write"];

describe(`webhook backlog on ${testProvider()}`, () => {
  it("logs an event beyond the waiting deliveries' cap as failed without queuing it, and queues again later", async () => {
    const { token } = await managementToken(prismaStores(db()), SCOPES, OPTICIAN);
    const endpoint = async (path: string) => {
      const body = { url: `https://hooks.example.com/${path}`, events: ["user.deactivated"] };
      const added = await manage("POST", "/webhooks", { token, body });
      expect(added.response.status).toBe(201);
      return added.body.id as string;
    };
    const [full, other] = [await endpoint("full"), await endpoint("other")];
    // One short of the cap waits already for `full`.
    await db().webhookDelivery.createMany({
      data: Array.from({ length: MAX_WAITING_WEBHOOK_DELIVERIES - 1 }, (_, index) => ({
        id: `msg_backlog_${index}`,
        endpointId: full,
        eventType: "user.deactivated",
        payload: "{}",
        queuedAt: new Date(),
      })),
    });
    const { passwordHash } = await db().user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const user = await db().user.create({
      data: { email: "backlog@shop.example", companyId: OPTICIAN, passwordHash, givenName: "B", familyName: "L" },
    });
    const deactivate = async () => {
      expect((await manage("POST", `/users/${user.id}/deactivate`, { token })).response.status).toBe(200);
      expect((await manage("POST", `/users/${user.id}/reactivate`, { token })).response.status).toBe(200);
    };
    const newest = async (id: string) => (await manage("GET", `/webhooks/${id}/deliveries?limit=1`, { token })).body;
    const attemptsFor = (id: string) => db().outboxMessage.count({ where: { kind: "webhook", recipient: id } });

    await deactivate();
    expect((await newest(full)).items[0]).toMatchObject({ status: "queued", attempts: 0, last_error: null });
    await deactivate();
    const refused = (await newest(full)).items[0];
    expect(refused).toMatchObject({ status: "failed", attempts: 0, last_status: null, last_error: BACKLOG_FULL_ERROR });
    expect(await attemptsFor(full)).toBe(1);
    expect(await db().webhookDelivery.count({ where: { endpointId: full, status: "queued" } })).toBe(
      MAX_WAITING_WEBHOOK_DELIVERIES,
    );
    // The other endpoint got every event.
    expect((await newest(other)).items[0]).toMatchObject({ status: "queued" });
    expect(await attemptsFor(other)).toBe(2);

    // A delivery leaves the queue: the next event is queued again.
    await db().webhookDelivery.update({ where: { id: "msg_backlog_0" }, data: { status: "delivered" } });
    await deactivate();
    expect((await newest(full)).items[0]).toMatchObject({ status: "queued", last_error: null });
    expect(await attemptsFor(full)).toBe(2);
  });
});
