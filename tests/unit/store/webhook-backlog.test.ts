/**
 * The cap on deliveries waiting per endpoint: the split of an event's deliveries, and the in-memory twin applying it
 * as the database store does (tests/integration/manage/webhook-backlog.test.ts).
 */
import { describe, expect, it } from "vitest";
import { MAX_WAITING_WEBHOOK_DELIVERIES } from "@/lib/config/policy";
import { BACKLOG_FULL_ERROR, withinBacklog, type PlannedDelivery } from "@/lib/store/webhook-queue";
import { memoryService } from "../../helpers/memory-service";

const at = new Date("2026-05-01T10:00:00.000Z");
const planned = (id: string, endpointId: string): PlannedDelivery => ({
  id,
  endpointId,
  eventType: "user.deactivated",
  payload: "{}",
  createdAt: at,
  queuedAt: at,
});

describe("withinBacklog", () => {
  it("queues up to the cap per endpoint, counting the deliveries of the same event", () => {
    const waiting = new Map([["full", MAX_WAITING_WEBHOOK_DELIVERIES - 1]]);
    const split = withinBacklog([planned("a", "full"), planned("b", "full"), planned("c", "free")], waiting);
    expect(split.queued.map((delivery) => delivery.id)).toEqual(["a", "c"]);
    expect(split.refused.map((delivery) => delivery.id)).toEqual(["b"]);
    expect(waiting.get("full")).toBe(MAX_WAITING_WEBHOOK_DELIVERIES - 1);
  });
});

describe("the in-memory webhook queue", () => {
  it("logs a delivery beyond the cap as failed and queues no attempt for it", async () => {
    const { context, tables, addUser } = memoryService();
    const { stores } = context;
    const userId = await addUser("backlog@shop.example");
    const endpoint = {
      id: "ep_memory",
      companyId: "company-1",
      url: "https://hooks.example/in",
      description: "",
      events: ["user.deactivated" as const],
      secretSealed: "sealed",
      registeredByOperator: false,
    };
    await stores.webhooks.addEndpoint(endpoint, 20, at);
    for (let index = 0; index < MAX_WAITING_WEBHOOK_DELIVERIES; index++)
      tables.webhookDeliveries.set(`msg_${index}`, {
        ...planned(`msg_${index}`, endpoint.id),
        status: "queued",
        attempts: 0,
        lastStatus: null,
        lastError: null,
        lastAttemptAt: null,
        deliveredAt: null,
      });
    await stores.audit.record({ type: "user.deactivated", details: { subjectUserId: userId } });
    const [newest] = await stores.webhooks.listDeliveries(endpoint.id, { limit: 1 });
    expect(newest).toMatchObject({ status: "failed", attempts: 0, lastError: BACKLOG_FULL_ERROR });
    expect(tables.outbox.filter((message) => message.recipient === endpoint.id)).toEqual([]);
  });
});
