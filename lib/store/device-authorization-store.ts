/**
 * Device authorization requests (RFC 8628, `device_authorizations`), found by the SHA-256 of their device code or by
 * the keyed hash of their user code. Each state change is one conditional update on the row as it must still be, so
 * that of concurrent decisions, polls or redemptions exactly one takes effect: a decision needs a pending, unexpired
 * request; a poll on time moves `next_poll_at` one interval on, a poll too early adds DEVICE_SLOW_DOWN_SECONDS to the
 * interval (§3.5); a redemption needs an approved, unredeemed, unexpired one. Decisions commit with their audit event.
 */
import {
  DEVICE_CODE_LIFETIME_SECONDS,
  DEVICE_POLL_INTERVAL_SECONDS,
  DEVICE_SLOW_DOWN_SECONDS,
} from "@/lib/config/policy";
import { hashToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { recordAuditEvent } from "@/lib/store/audit-store";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import { parseAmr } from "@/lib/store/models/authentication";
import type {
  DeviceAuthorization,
  DeviceAuthorizationStatus,
  DeviceDecision,
  NewDeviceAuthorization,
} from "@/lib/store/models/device-authorization";

export interface DeviceAuthorizationStore {
  /** Stores a pending request under its device code; false when another request has the user code (take another). */
  create(deviceCode: string, request: NewDeviceAuthorization, now: Date): Promise<boolean>;
  /** How many of the client's requests wait for a decision (pending and unexpired). */
  countPending(clientId: string, now: Date): Promise<number>;
  /** The request of this user code hash, whatever its state, or null. */
  findByUserCode(userCodeHash: string): Promise<DeviceAuthorization | null>;
  /** The request of this id while it waits for a decision, or undefined. */
  findPending(id: string, now: Date): Promise<DeviceAuthorization | undefined>;
  /** The request of this device code, whatever its state, or null. */
  findByDeviceCode(deviceCode: string): Promise<DeviceAuthorization | null>;
  /** Decides a pending, unexpired request, with its audit event; false when it was decided or expired meanwhile. */
  decide(id: string, decision: DeviceDecision, now: Date, ipAddress?: string): Promise<boolean>;
  /** Counts a poll of the pending request: on time, or too early (then its interval grows, RFC 8628 §3.5). */
  poll(request: DeviceAuthorization, now: Date): Promise<"on_time" | "too_early">;
  /** Marks an approved, unredeemed, unexpired request redeemed; false when it is not (one redemption only). */
  redeem(id: string, now: Date): Promise<boolean>;
}

export const secondsAfter = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

/** The columns of a new request. */
export const newRequestRow = (deviceCode: string, request: NewDeviceAuthorization, now: Date) => ({
  deviceCodeHash: hashToken(deviceCode),
  ...request,
  status: "pending" as DeviceAuthorizationStatus,
  pollInterval: DEVICE_POLL_INTERVAL_SECONDS,
  // The first poll is on time whenever it comes: the interval is between polls.
  nextPollAt: now,
  createdAt: now,
  expiresAt: secondsAfter(now, DEVICE_CODE_LIFETIME_SECONDS),
});

/** The audit event of a decision. */
export function decisionEvent(id: string, decision: DeviceDecision, clientId: string, ipAddress?: string): AuditEvent {
  const common = { clientId, ipAddress };
  if ("approve" in decision) {
    const { userId, scopes } = decision.approve;
    return { ...common, type: "device.approved", userId, details: { deviceAuthorizationId: id, scopes } };
  }
  return { ...common, type: "device.denied", userId: decision.deny.userId, details: { deviceAuthorizationId: id } };
}

type Row = NonNullable<Awaited<ReturnType<Db["deviceAuthorization"]["findUnique"]>>>;

function fromRow(row: Row): DeviceAuthorization {
  const grant =
    row.status === "approved" && row.userId && row.authTime
      ? {
          userId: row.userId,
          scopes: JSON.parse(row.grantedScopes ?? "[]") as string[],
          authTime: row.authTime,
          amr: parseAmr(row.amr),
          consentId: row.consentId,
        }
      : null;
  return {
    id: row.id,
    clientId: row.clientId,
    scopes: JSON.parse(row.scopes) as string[],
    resources: JSON.parse(row.resources) as string[],
    network: row.network,
    status: row.status as DeviceAuthorizationStatus,
    pollInterval: row.pollInterval,
    nextPollAt: row.nextPollAt,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    redeemedAt: row.redeemedAt,
    grant,
  };
}

const decisionColumns = (decision: DeviceDecision, now: Date) =>
  "approve" in decision
    ? {
        status: "approved",
        userId: decision.approve.userId,
        grantedScopes: JSON.stringify(decision.approve.scopes),
        authTime: decision.approve.authTime,
        amr: JSON.stringify(decision.approve.amr),
        consentId: decision.approve.consentId,
        decidedAt: now,
      }
    : { status: "denied", userId: decision.deny.userId, decidedAt: now };

export function prismaDeviceAuthorizationStore(db: Db): DeviceAuthorizationStore {
  const table = db.deviceAuthorization;
  return {
    async create(deviceCode, request, now) {
      const { scopes, resources, ...row } = newRequestRow(deviceCode, request, now);
      try {
        await table.create({ data: { ...row, scopes: JSON.stringify(scopes), resources: JSON.stringify(resources) } });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    countPending: (clientId, now) => table.count({ where: { clientId, status: "pending", expiresAt: { gt: now } } }),
    async findByUserCode(userCodeHash) {
      const row = await table.findUnique({ where: { userCodeHash } });
      return row && fromRow(row);
    },
    async findPending(id, now) {
      const row = await table.findFirst({ where: { id, status: "pending", expiresAt: { gt: now } } });
      return row ? fromRow(row) : undefined;
    },
    async findByDeviceCode(deviceCode) {
      const row = await table.findUnique({ where: { deviceCodeHash: hashToken(deviceCode) } });
      return row && fromRow(row);
    },
    decide(id, decision, now, ipAddress) {
      return db.$transaction(async (tx) => {
        const where = { id, status: "pending", expiresAt: { gt: now } };
        const row = await tx.deviceAuthorization.findFirst({ where, select: { clientId: true } });
        if (!row) return false;
        const { count } = await tx.deviceAuthorization.updateMany({ where, data: decisionColumns(decision, now) });
        if (count === 1) await recordAuditEvent(tx, decisionEvent(id, decision, row.clientId, ipAddress));
        return count === 1;
      });
    },
    async poll(request, now) {
      if (now >= request.nextPollAt) {
        // A poll takes the slot; a concurrent twin finds it taken and is too early.
        const { count } = await table.updateMany({
          where: { id: request.id, status: "pending", nextPollAt: { lte: now } },
          data: { nextPollAt: secondsAfter(now, request.pollInterval) },
        });
        if (count === 1) return "on_time";
      }
      const interval = request.pollInterval + DEVICE_SLOW_DOWN_SECONDS;
      await table.updateMany({
        where: { id: request.id, status: "pending" },
        data: { pollInterval: { increment: DEVICE_SLOW_DOWN_SECONDS }, nextPollAt: secondsAfter(now, interval) },
      });
      return "too_early";
    },
    async redeem(id, now) {
      const { count } = await table.updateMany({
        where: { id, status: "approved", redeemedAt: null, expiresAt: { gt: now } },
        data: { redeemedAt: now },
      });
      return count === 1;
    },
  };
}
