/** Sign-in notices in memory, with the database store's rules (lib/store/sign-in-notice-store.ts). */
import { randomUUID } from "node:crypto";
import { hashToken } from "@/lib/crypto/tokens";
import type { AuditStore } from "@/lib/store/audit-store";
import type { SignInNotice } from "@/lib/store/models/sign-in-notice";
import { queueInMemory } from "@/lib/store/memory/memory-outbox";
import { signOutInMemory } from "@/lib/store/memory/memory-sign-out";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";
import { noticeFields, type SignInNoticeStore } from "@/lib/store/sign-in-notice-store";

export type StoredSignInNotice = Omit<SignInNotice, "user"> & { tokenHash: string };

export function memorySignInNoticeStore(tables: MemoryTables, audit: AuditStore): SignInNoticeStore {
  const notices = tables.signInNotices;
  return {
    async save(value, notice, mail, now) {
      const id = randomUUID();
      notices.set(id, { id, ...noticeFields(value, notice, now) });
      queueInMemory(tables, mail, now);
    },
    async find(value) {
      const hash = hashToken(value);
      const row = [...notices.values()].find((notice) => notice.tokenHash === hash);
      const user = row && tables.users.get(row.userId);
      const company = user && tables.companies.get(user.companyId);
      if (!row || !user || !company) return null;
      const { tokenHash: _hash, ...notice } = row;
      return copy({ ...notice, user: { ...user, company } });
    },
    async disown(noticeId, userId, change, now) {
      const notice = notices.get(noticeId);
      if (!notice || notice.userId !== userId || notice.usedAt || notice.expiresAt <= now) return null;
      notice.usedAt = now;
      const ended = signOutInMemory(tables, [userId], now, { tickets: true });
      const user = tables.users.get(userId);
      if (user) user.passwordHash = change.passwordHash;
      for (const mail of change.mail) queueInMemory(tables, mail, now);
      await audit.record(change.event);
      return ended;
    },
  };
}
