/** People as operators and company administrators manage them, in memory (user-admin-store.ts, person-erasure-store.ts). */
import { randomUUID } from "node:crypto";
import type { AuditStore } from "@/lib/store/audit-store";
import type { AuditEventType } from "@/lib/store/models/audit-event";
import type { User } from "@/lib/store/models/user";
import { pseudonymOf } from "@/lib/store/person-erasure-store";
import { accountThrottleKey, resetThrottleKey } from "@/lib/store/throttle-store";
import type { ListedUser, PeopleStore } from "@/lib/store/user-admin-store";
import type { UserSearch } from "@/lib/store/user-search";
import { signOutInMemory } from "@/lib/store/memory/memory-sign-out";
import type { MemoryTables } from "@/lib/store/memory/memory-tables";

/** The invitation, the mail and the sign-in and reset counters of an address. */
function eraseTraces(tables: MemoryTables, email: string) {
  for (const [id, row] of tables.invitations) if (row.email === email) tables.invitations.delete(id);
  tables.outbox = tables.outbox.filter((mail) => mail.recipient !== email);
  tables.throttles.delete(accountThrottleKey(email));
  tables.throttles.delete(resetThrottleKey(email));
}

/** Replaces the address, as a JSON string value, in every audit event that holds it. */
function pseudonymize(tables: MemoryTables, email: string, pseudonym: string) {
  const [quoted, replacement] = [JSON.stringify(email), JSON.stringify(pseudonym)];
  for (const event of tables.auditEvents) event.details = event.details.split(quoted).join(replacement);
}

/** The addresses the user had before (and asked to have), as their email changes recorded them. */
const otherAddressesOf = (tables: MemoryTables, userId: string) =>
  tables.auditEvents
    .filter(
      (event) => event.userId === userId && ["user.email_change_requested", "user.email_changed"].includes(event.type),
    )
    .flatMap((event) => {
      const details = JSON.parse(event.details) as Record<string, unknown>;
      return [details.previous, details.newEmail].filter((value): value is string => typeof value === "string");
    });

/** What goes with the user row (ON DELETE CASCADE in the database). */
function deleteUserRows(tables: MemoryTables, userId: string) {
  tables.users.delete(userId);
  for (const [key, consent] of tables.consents) if (consent.userId === userId) tables.consents.delete(key);
  for (const [key, session] of tables.loginSessions) if (session.userId === userId) tables.loginSessions.delete(key);
  for (const [key, ticket] of tables.tickets) if (ticket.userId === userId) tables.tickets.delete(key);
  for (const [key, linked] of tables.federatedSubjects) if (linked === userId) tables.federatedSubjects.delete(key);
  for (const [key, link] of tables.accountLinks) if (link.userId === userId) tables.accountLinks.delete(key);
  for (const [key, notice] of tables.signInNotices) if (notice.userId === userId) tables.signInNotices.delete(key);
  for (const [key, token] of tables.refreshTokens) if (token.userId === userId) tables.refreshTokens.delete(key);
  for (const [key, code] of tables.authorizationCodes)
    if (code.userId === userId) tables.authorizationCodes.delete(key);
  for (const [key, request] of tables.deviceAuthorizations)
    if (request.grant?.userId === userId) tables.deviceAuthorizations.delete(key);
  tables.totp.delete(userId);
  tables.recoveryCodes = tables.recoveryCodes.filter((code) => code.userId !== userId);
  for (const [key, passkey] of tables.passkeys) if (passkey.userId === userId) tables.passkeys.delete(key);
}

/** A user as the people store lists them, with the lock-out in force now. */
function listed(tables: MemoryTables, user: User, now: Date): ListedUser {
  const { id, email, companyId, role, active, givenName, familyName, createdAt, lastSignInAt } = user;
  const lock = tables.throttles.get(accountThrottleKey(email))?.lockedUntil;
  return {
    ...{ id, email, companyId, role, active, givenName, familyName, createdAt, lastSignInAt },
    lockedUntil: lock && lock > now ? lock : null,
  };
}

/** The search's filters, as the database store applies them (names compared without regard to case). */
function found(user: User, where: UserSearch): boolean {
  const names = [user.givenName.toLowerCase(), user.familyName.toLowerCase()];
  return (
    (where.id === undefined || user.id === where.id) &&
    (where.companyId === undefined || user.companyId === where.companyId) &&
    (where.email === undefined || user.email === where.email) &&
    (where.words ?? []).every(
      (word) => user.email.includes(word.toLowerCase()) || names.some((name) => name.includes(word.toLowerCase())),
    )
  );
}

export function memoryPeopleStore(tables: MemoryTables, audit: AuditStore): PeopleStore {
  const byEmail = (email: string) => [...tables.users.values()].find((user) => user.email === email);
  const userEvent = (type: AuditEventType, user: User, by?: string) =>
    audit.record({
      type,
      userId: by,
      companyId: user.companyId,
      details: { subjectUserId: user.id, username: user.email },
    });
  return {
    async list(where = {}, now = new Date()) {
      return [...tables.users.values()]
        .filter(
          (user) =>
            (!where.companyId || user.companyId === where.companyId) && (!where.email || user.email === where.email),
        )
        .sort((a, b) =>
          a.companyId === b.companyId ? (a.email < b.email ? -1 : 1) : a.companyId < b.companyId ? -1 : 1,
        )
        .map((user) => listed(tables, user, now));
    },
    async search(where, page, now = new Date()) {
      return [...tables.users.values()]
        .filter((user) => found(user, where) && (page.after === undefined || user.email > page.after))
        .sort((a, b) => (a.email < b.email ? -1 : 1))
        .slice(0, page.limit)
        .map((user) => listed(tables, user, now));
    },
    async deactivate(email, decision, now = new Date()) {
      const user = byEmail(email);
      if (!user) return "not_found";
      if (!user.active) {
        // An operator's word on a person a company administrator deactivated makes it the operator's decision.
        if (decision.byOperator) user.deactivatedByOperator = true;
        return "unchanged";
      }
      Object.assign(user, { active: false, suspendedWithCompany: false, deactivatedByOperator: decision.byOperator });
      const sessionIds = signOutInMemory(tables, [user.id], now);
      for (const [id, row] of tables.invitations)
        if (row.invitedByUserId === user.id && !row.acceptedAt) tables.invitations.delete(id);
      await userEvent("user.deactivated", user, decision.by);
      return sessionIds;
    },
    async activate(email, decision) {
      const user = byEmail(email);
      if (!user) return "not_found";
      if (user.active) return "unchanged";
      if (!tables.companies.get(user.companyId)?.active) return "company_inactive";
      if (user.deactivatedByOperator && !decision.byOperator) return "operator_decision";
      Object.assign(user, { active: true, suspendedWithCompany: false, deactivatedByOperator: false });
      await userEvent("user.activated", user, decision.by);
      return "activated";
    },
    async unlock(email, by) {
      const user = byEmail(email);
      if (!user) return "not_found";
      tables.throttles.delete(accountThrottleKey(email));
      await userEvent("user.unlocked", user, by);
      return "unlocked";
    },
    async changeRole(email, role, by) {
      const user = byEmail(email);
      if (!user) return "not_found";
      if (user.role === role) return "unchanged";
      const from = user.role;
      user.role = role;
      await audit.record({
        type: "user.role_changed",
        userId: by,
        companyId: user.companyId,
        details: { subjectUserId: user.id, username: user.email, from, to: role },
      });
      return "changed";
    },
    countActiveAdmins: async (companyId) =>
      [...tables.users.values()].filter((user) => user.companyId === companyId && user.role === "admin" && user.active)
        .length,
    async remove(email, by) {
      const user = byEmail(email);
      if (!user) return "not_found";
      const addresses = [...new Set([email, ...otherAddressesOf(tables, user.id)])];
      for (const address of addresses) eraseTraces(tables, address);
      deleteUserRows(tables, user.id);
      for (const address of addresses) pseudonymize(tables, address, pseudonymOf(user.id));
      await audit.record({
        type: "user.removed",
        userId: by,
        details: { subjectUserId: user.id, companyId: user.companyId },
      });
      return "removed";
    },
    async eraseInvited(email, by) {
      if (![...tables.invitations.values()].some((row) => row.email === email && !row.acceptedAt)) return "not_found";
      eraseTraces(tables, email);
      const pseudonym = `removed-person:${randomUUID()}`;
      pseudonymize(tables, email, pseudonym);
      await audit.record({ type: "user.removed", userId: by, details: { subject: pseudonym } });
      return "erased";
    },
  };
}
