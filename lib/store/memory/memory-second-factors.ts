/** Second factors and used WebAuthn challenges in memory, with the database store's rules (second-factor-store.ts). */
import { randomUUID } from "node:crypto";
import { hashToken } from "@/lib/crypto/tokens";
import type { AuditStore } from "@/lib/store/audit-store";
import type { SecondFactorStore } from "@/lib/store/second-factor-store";
import { queueInMemory } from "@/lib/store/memory/memory-outbox";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

type PasskeyMethods = "listPasskeys" | "findPasskey" | "savePasskey" | "recordPasskeyUse" | "renamePasskey";

const passkeysOf = (tables: MemoryTables, userId: string) =>
  [...tables.passkeys.values()]
    .filter((passkey) => passkey.userId === userId)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

/** Passkeys and challenges: the WebAuthn half. */
function memoryPasskeys(
  tables: MemoryTables,
  audit: AuditStore,
): Pick<SecondFactorStore, PasskeyMethods | "deletePasskey" | "recordChallengeUse"> {
  const { passkeys, usedChallenges } = tables;
  return {
    listPasskeys: async (userId) => copy(passkeysOf(tables, userId)),
    findPasskey: async (credentialId) =>
      copy([...passkeys.values()].find((passkey) => passkey.credentialId === credentialId) ?? null),
    async savePasskey(passkey, now) {
      if ([...passkeys.values()].some((stored) => stored.credentialId === passkey.credentialId)) return false;
      const id = randomUUID();
      passkeys.set(id, copy({ ...passkey, id, createdAt: now, lastUsedAt: null }));
      const details = { name: passkey.name, deviceType: passkey.deviceType };
      await audit.record({ type: "user.passkey_added", userId: passkey.userId, details });
      return true;
    },
    async recordPasskeyUse({ id, seen }, use, now) {
      const passkey = passkeys.get(id);
      if (!passkey || passkey.counter !== seen) return false;
      Object.assign(passkey, { counter: use.counter, backedUp: use.backedUp, lastUsedAt: now });
      return true;
    },
    async renamePasskey(userId, id, name) {
      const passkey = passkeys.get(id);
      if (passkey?.userId !== userId) return false;
      passkey.name = name;
      return true;
    },
    async deletePasskey(userId, id) {
      if (passkeys.get(id)?.userId !== userId) return false;
      passkeys.delete(id);
      await audit.record({ type: "user.passkey_removed", userId, details: { passkey: id } });
      return true;
    },
    async recordChallengeUse(challenge) {
      if (usedChallenges.has(challenge.hash)) return false;
      usedChallenges.set(challenge.hash, copy(challenge));
      return true;
    },
  };
}

export function memorySecondFactorStore(tables: MemoryTables, audit: AuditStore): SecondFactorStore {
  const { totp, recoveryCodes, passkeys } = tables;
  return {
    ...memoryPasskeys(tables, audit),
    async count(userId) {
      const user = tables.users.get(userId);
      return {
        passkeys: passkeysOf(tables, userId).length,
        totp: Boolean(totp.get(userId)?.confirmedAt),
        required: (user && tables.companies.get(user.companyId)?.requireSecondFactor) ?? false,
      };
    },
    async deleteAll(userId, change, now) {
      const removed = passkeysOf(tables, userId).length + (totp.has(userId) ? 1 : 0);
      for (const passkey of passkeysOf(tables, userId)) passkeys.delete(passkey.id);
      totp.delete(userId);
      tables.recoveryCodes = recoveryCodes.filter((code) => code.userId !== userId);
      if (removed === 0) return 0;
      for (const mail of change.mail) queueInMemory(tables, mail, now);
      await audit.record({
        type: "user.second_factors_reset",
        userId,
        details: { by: change.by ?? "operator", removed },
      });
      return removed;
    },
    async listAddedSince(userId, since) {
      const app = totp.get(userId)?.confirmedAt;
      return [
        ...passkeysOf(tables, userId)
          .filter((passkey) => passkey.createdAt >= since)
          .map((passkey) => ({ kind: "passkey" as const, addedAt: passkey.createdAt })),
        ...(app && app >= since ? [{ kind: "app" as const, addedAt: app }] : []),
      ].sort((a, b) => a.addedAt.getTime() - b.addedAt.getTime());
    },
    findTotp: async (userId) => copy(totp.get(userId) ?? null),
    async savePendingTotp({ userId, sealedSecret, loginSessionId }, now) {
      if (totp.get(userId)?.confirmedAt) return false;
      totp.set(userId, { userId, sealedSecret, loginSessionId, createdAt: now, confirmedAt: null, lastUsedStep: null });
      return true;
    },
    async useTotpStep(userId, step, confirm, now) {
      const factor = totp.get(userId);
      if (!factor || (factor.lastUsedStep !== null && factor.lastUsedStep >= step)) return false;
      const waiting =
        confirm &&
        !factor.confirmedAt &&
        factor.loginSessionId === confirm.loginSessionId &&
        factor.createdAt > confirm.startedAfter;
      if (confirm ? !waiting : !factor.confirmedAt) return false;
      factor.lastUsedStep = step;
      if (confirm) {
        Object.assign(factor, { confirmedAt: now, loginSessionId: null });
        await audit.record({ type: "user.totp_enabled", userId });
      }
      return true;
    },
    async deleteTotp(userId) {
      const factor = totp.get(userId);
      totp.delete(userId);
      if (!factor?.confirmedAt) return false;
      await audit.record({ type: "user.totp_removed", userId });
      return true;
    },
    async replaceRecoveryCodes(userId, codes, now) {
      tables.recoveryCodes = [
        ...tables.recoveryCodes.filter((code) => code.userId !== userId),
        ...codes.map((code) => ({ userId, codeHash: hashToken(code), createdAt: now, usedAt: null })),
      ];
      await audit.record({ type: "user.recovery_codes_generated", userId });
    },
    async useRecoveryCode(userId, code, now) {
      const hash = hashToken(code);
      const unused = tables.recoveryCodes.find((row) => row.userId === userId && row.codeHash === hash && !row.usedAt);
      if (!unused) return false;
      unused.usedAt = now;
      return true;
    },
    countUnusedRecoveryCodes: async (userId) =>
      tables.recoveryCodes.filter((code) => code.userId === userId && !code.usedAt).length,
  };
}
