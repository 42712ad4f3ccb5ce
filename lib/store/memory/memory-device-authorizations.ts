/** Device authorization requests in memory, with the database store's rules (device-authorization-store.ts). */
import { randomUUID } from "node:crypto";
import { DEVICE_SLOW_DOWN_SECONDS } from "@/lib/config/policy";
import { hashToken } from "@/lib/crypto/tokens";
import type { AuditStore } from "@/lib/store/audit-store";
import {
  secondsAfter,
  decisionEvent,
  newRequestRow,
  type DeviceAuthorizationStore,
} from "@/lib/store/device-authorization-store";
import type { DeviceAuthorization } from "@/lib/store/models/device-authorization";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

export type StoredDeviceAuthorization = DeviceAuthorization & { deviceCodeHash: string; userCodeHash: string };

const shown = ({ deviceCodeHash: _device, userCodeHash: _user, ...request }: StoredDeviceAuthorization) =>
  copy(request);

export function memoryDeviceAuthorizationStore(tables: MemoryTables, audit: AuditStore): DeviceAuthorizationStore {
  const rows = tables.deviceAuthorizations;
  const find = (match: (row: StoredDeviceAuthorization) => boolean) => [...rows.values()].find(match);
  const pending = (id: string, now?: Date) => {
    const row = rows.get(id);
    return row?.status === "pending" && (now === undefined || row.expiresAt > now) ? row : undefined;
  };
  return {
    async create(deviceCode, request, now) {
      if (find((row) => row.userCodeHash === request.userCodeHash)) return false;
      const id = randomUUID();
      rows.set(id, copy({ ...newRequestRow(deviceCode, request, now), id, redeemedAt: null, grant: null }));
      return true;
    },
    countPending: async (clientId, now) =>
      [...rows.values()].filter((row) => row.clientId === clientId && pending(row.id, now)).length,
    async findByUserCode(userCodeHash) {
      const row = find((candidate) => candidate.userCodeHash === userCodeHash);
      return row ? shown(row) : null;
    },
    async findPending(id, now) {
      const row = pending(id, now);
      return row && shown(row);
    },
    async findByDeviceCode(deviceCode) {
      const hash = hashToken(deviceCode);
      const row = find((candidate) => candidate.deviceCodeHash === hash);
      return row ? shown(row) : null;
    },
    async decide(id, decision, now, ipAddress) {
      const row = pending(id, now);
      if (!row) return false;
      if ("approve" in decision) Object.assign(row, { status: "approved", grant: copy(decision.approve) });
      else row.status = "denied";
      await audit.record(decisionEvent(id, decision, row.clientId, ipAddress));
      return true;
    },
    async poll(request, now) {
      const row = pending(request.id);
      if (row && now >= row.nextPollAt) {
        row.nextPollAt = secondsAfter(now, request.pollInterval);
        return "on_time";
      }
      if (row) {
        row.pollInterval += DEVICE_SLOW_DOWN_SECONDS;
        row.nextPollAt = secondsAfter(now, request.pollInterval + DEVICE_SLOW_DOWN_SECONDS);
      }
      return "too_early";
    },
    async redeem(id, now) {
      const row = rows.get(id);
      if (!row || row.status !== "approved" || row.redeemedAt || row.expiresAt <= now) return false;
      row.redeemedAt = now;
      return true;
    },
  };
}
