/** One-time account links in memory, with the database store's rules (lib/store/account-link-store.ts). */
import { randomUUID } from "node:crypto";
import { hashToken } from "@/lib/crypto/tokens";
import { linkFields, type AccountLinkStore } from "@/lib/store/account-link-store";
import type { AuditStore } from "@/lib/store/audit-store";
import type { AccountLink, ChangeRecord, LinkRef } from "@/lib/store/models/account-link";
import { queueInMemory } from "@/lib/store/memory/memory-outbox";
import { signOutInMemory } from "@/lib/store/memory/memory-sign-out";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

export type StoredAccountLink = Omit<AccountLink, "user">;

export function memoryAccountLinkStore(tables: MemoryTables, audit: AuditStore): AccountLinkStore {
  const links = tables.accountLinks;
  const record = async (change: ChangeRecord, now: Date) => {
    for (const mail of change.mail) queueInMemory(tables, mail, now);
    await audit.record(change.event);
  };
  /** Marks the link used if it still holds the value it was read with, is unused and current. */
  const use = (ref: LinkRef, now: Date) => {
    const link = links.get(ref.id);
    if (!link || link.tokenHash !== ref.tokenHash || link.usedAt || link.expiresAt <= now) return false;
    link.usedAt = now;
    return true;
  };
  const closeOthers = (userId: string, keepId?: string) => {
    for (const link of [...links.values()]) if (link.userId === userId && link.id !== keepId) links.delete(link.id);
  };
  const setUser = (userId: string, change: object) => Object.assign(tables.users.get(userId) ?? {}, change);
  /** A user's address, or one a live invitation waits for. */
  const emailInUse = (email: string, now: Date) =>
    [...tables.users.values()].some((user) => user.email === email) ||
    [...tables.invitations.values()].some((row) => row.email === email && !row.acceptedAt && row.expiresAt > now);
  return {
    async save(value, link, change, now) {
      const earlier = [...links.values()].find((row) => row.userId === link.userId && row.purpose === link.purpose);
      const id = earlier?.id ?? randomUUID();
      links.set(id, {
        id,
        userId: link.userId,
        purpose: link.purpose,
        ...linkFields(value, link, now),
      });
      await record(change, now);
    },
    async find(value) {
      const hash = hashToken(value);
      const link = [...links.values()].find((row) => row.tokenHash === hash);
      const user = link && tables.users.get(link.userId);
      const company = user && tables.companies.get(user.companyId);
      return link && user && company ? copy({ ...link, user: { ...user, company } }) : null;
    },
    async resetPassword(ref, passwordHash, change, now) {
      if (!use(ref, now)) return null;
      setUser(ref.userId, { passwordHash });
      closeOthers(ref.userId, ref.id);
      const ended = signOutInMemory(tables, [ref.userId], now, { tickets: true });
      await record(change, now);
      return ended;
    },
    async changePassword(user, passwordHash, change, now) {
      setUser(user.userId, { passwordHash });
      closeOthers(user.userId);
      const ended = user.signOutElsewhere
        ? signOutInMemory(tables, [user.userId], now, { keepSessionId: user.keepSessionId, tickets: true })
        : [];
      await record(change, now);
      return ended;
    },
    isEmailInUse: async (email, now = new Date()) => emailInUse(email, now),
    async confirmEmail(ref, change, now) {
      if (emailInUse(ref.newEmail, now)) return "email_taken";
      if (!use(ref, now)) return "used";
      setUser(ref.userId, { email: ref.newEmail, emailVerified: true });
      closeOthers(ref.userId, ref.id);
      const endedSessions: string[] = [];
      for (const session of tables.loginSessions.values())
        if (session.userId === ref.userId && !session.endedAt && session.id !== change.keepSessionId) {
          session.endedAt = now;
          endedSessions.push(session.id);
        }
      await record(change, now);
      return { endedSessions };
    },
    async findOpen(userId, purpose, now) {
      const link = [...links.values()].find(
        (row) => row.userId === userId && row.purpose === purpose && !row.usedAt && row.expiresAt > now,
      );
      return link ? { newEmail: link.newEmail, expiresAt: link.expiresAt } : null;
    },
  };
}
