/**
 * The operator's dashboard on a database with AUDIT_EVENTS events in the trail (spread over the audit retention's 400
 * days, sign-ins most of them) and a week of hourly activity for ACTIVE_COMPANIES companies: /admin, rendered for a
 * signed-in operator, one request at a time from the bench's core (how long one operator waits for it). The page reads
 * the hourly activity, never the trail: its answer time must not grow with the trail (target: under 300 ms).
 */
import { randomUUID } from "node:crypto";
import type { DatabaseTarget } from "@/lib/config/database-url";
import { createPrismaClient } from "@/lib/db/prisma";
import { addActivity } from "@/lib/db/statements/activity-counts";
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import { prismaStores } from "@/lib/store/stores";
import type { ActivityIncrement } from "@/lib/store/models/activity";
import { prepareBenchFixtures } from "./fixtures";
import { measure, OPTIGATE_SERVER, sized, startServer, stop, waitFor, type Measurement } from "./runner";

export const AUDIT_EVENTS = sized(1_000_000, 2_000);
const ACTIVE_COMPANIES = sized(40, 2);
const BATCH = 5000;
const TYPES = ["sign_in.succeeded", "sign_in.succeeded", "sign_in.failed", "consent.granted", "token.revoked"];

async function seedAuditTrail(db: ReturnType<typeof createPrismaClient>, now: Date): Promise<void> {
  for (let offset = 0; offset < AUDIT_EVENTS; offset += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, AUDIT_EVENTS - offset) }, (_, index) => ({
      id: randomUUID(),
      occurredAt: new Date(now.getTime() - ((offset + index) % (400 * 24 * 60)) * 60_000),
      type: TYPES[(offset + index) % TYPES.length],
      companyId: `bench-company-${(offset + index) % ACTIVE_COMPANIES}`,
      details: "{}",
    }));
    await db.auditEvent.createMany({ data: rows });
  }
}

/** A week of hourly activity: every kind the dashboard charts, for every active company. */
function weekOfActivity(now: Date): ActivityIncrement[] {
  const increments: ActivityIncrement[] = [];
  for (let hour = 0; hour < 7 * 24; hour++)
    for (let company = 0; company < ACTIVE_COMPANIES; company++) {
      const at = new Date(now.getTime() - hour * 3_600_000);
      const companyId = `bench-company-${company}`;
      for (const kind of [
        "sign_in.succeeded",
        "sign_in.failed",
        "token.authorization_code",
        "catalog.download",
      ] as const)
        increments.push({ at, companyId, kind, count: 1 + ((hour + company) % 7) });
    }
  return increments;
}

export async function benchDashboard(target: DatabaseTarget): Promise<Measurement> {
  await prepareBenchFixtures(target, "ES256", 0, 0);
  const db = createPrismaClient(target);
  const now = new Date();
  const cookie = generateOpaqueToken();
  try {
    await seedAuditTrail(db, now);
    await addActivity(db, weekOfActivity(now));
    const operator = await db.user.findUniqueOrThrow({ where: { email: "admin@demo.test" } });
    await prismaStores(db).loginSessions.save(cookie, operator.id, {}, now, ["pwd"]);
  } finally {
    await db.$disconnect();
  }
  const { child, baseUrl } = await startServer(OPTIGATE_SERVER, target, "ES256");
  try {
    await waitFor(`${baseUrl}/api/health`);
    return await measure(`${target.provider} operator dashboard, ${AUDIT_EVENTS} audit events, 1 at a time`, baseUrl, {
      method: "GET",
      path: "/admin",
      headers: { cookie: `optigate_session=${cookie}` },
      expectStatus: 200,
      // How long one operator waits for the page: one request at a time.
      connections: 1,
    });
  } finally {
    await stop(child);
  }
}

export function reportDashboard(results: Measurement[], check: (label: string, ok: boolean) => void): void {
  for (const result of results)
    check(`${result.name}: p99 under 300 ms (${result.p99} ms, p50 ${result.p50} ms)`, result.p99 < 300);
}
