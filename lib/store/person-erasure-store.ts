/**
 * Erasing a person's personal data (`users remove`): a user's row with name, email and password hash, and with it
 * their consents, sessions, tickets, codes, refresh tokens, federation links, account links, sign-in and reset
 * counters, invitation and mail (also under the addresses they had before or asked for);
 * or, for someone invited who never joined, the invitation and its mail. The audit trail stays: the email in its
 * events is replaced by a pseudonym that names no one once the person's data is gone.
 */
import { randomUUID } from "node:crypto";
import type { Db, DbTransaction } from "@/lib/db/prisma";
import { recordAuditEvent } from "@/lib/store/audit-store";
import { eraseMailTo } from "@/lib/store/outbox-store";
import { accountThrottleKey } from "@/lib/store/throttle-store";
import { resetThrottleKey } from "@/lib/store/throttle-store";
import { forgetUser } from "@/lib/store/user-store";

/** What stands for a removed user in the audit trail: their id, which names no one once the user row is gone. */
export const pseudonymOf = (userId: string) => `removed-user:${userId}`;

/** Replaces the email, as a JSON string value, in every audit event that holds it (and nowhere else). */
async function pseudonymizeAuditTrail(tx: DbTransaction, email: string, pseudonym: string): Promise<void> {
  const quoted = JSON.stringify(email);
  const mentions = await tx.auditEvent.findMany({
    where: { details: { contains: quoted } },
    select: { id: true, details: true },
  });
  for (const event of mentions)
    await tx.auditEvent.update({
      where: { id: event.id },
      data: { details: event.details.split(quoted).join(JSON.stringify(pseudonym)) },
    });
}

/** What every erasure removes besides the user row: the invitation, the mail and the sign-in and reset counters. */
async function eraseTraces(tx: DbTransaction, email: string): Promise<void> {
  await tx.invitation.deleteMany({ where: { email } });
  await eraseMailTo(tx, email);
  await tx.loginThrottle.deleteMany({ where: { key: { in: [accountThrottleKey(email), resetThrottleKey(email)] } } });
}

/** The addresses the user had before (and asked to have), as their email changes recorded them. */
async function otherAddressesOf(tx: DbTransaction, userId: string): Promise<string[]> {
  const changes = await tx.auditEvent.findMany({
    where: { userId, type: { in: ["user.email_change_requested", "user.email_changed"] } },
    select: { details: true },
  });
  const addresses = changes.flatMap((event) => {
    const details = JSON.parse(event.details) as Record<string, unknown>;
    return [details.previous, details.newEmail].filter((value): value is string => typeof value === "string");
  });
  return [...new Set(addresses)];
}

/** Erases a user; call it after signing them out (deactivateUser), so that their applications were told. */
export async function removeUser(db: Db, email: string, by?: string): Promise<"removed" | "not_found"> {
  const outcome = await db.$transaction(
    async (tx) => {
      const user = await tx.user.findUnique({ where: { email }, select: { id: true, companyId: true } });
      if (!user) return "not_found" as const;
      const userId = user.id;
      const addresses = [email, ...(await otherAddressesOf(tx, userId)).filter((address) => address !== email)];
      await tx.refreshToken.deleteMany({ where: { userId } });
      await tx.authorizationCode.deleteMany({ where: { userId } });
      for (const address of addresses) await eraseTraces(tx, address);
      // Consents, sessions, tickets, federation links and account links go with the user row (ON DELETE CASCADE).
      await tx.user.delete({ where: { id: userId } });
      for (const address of addresses) await pseudonymizeAuditTrail(tx, address, pseudonymOf(userId));
      // The company is named: the user row it would be read from is gone (the user.erased webhook needs it).
      const details = { subjectUserId: userId, companyId: user.companyId };
      await recordAuditEvent(tx, { type: "user.removed", userId: by, details });
      return { userId };
    },
    { timeout: 60_000 },
  );
  if (outcome === "not_found") return outcome;
  forgetUser(outcome.userId);
  return "removed";
}

/** Erases someone invited who never joined: their pending invitation (its link stops working) and mail. */
export async function eraseInvitedPerson(db: Db, email: string, by?: string): Promise<"erased" | "not_found"> {
  return db.$transaction(async (tx) => {
    const pending = await tx.invitation.count({ where: { email, acceptedAt: null } });
    if (pending === 0) return "not_found" as const;
    await eraseTraces(tx, email);
    const pseudonym = `removed-person:${randomUUID()}`;
    await pseudonymizeAuditTrail(tx, email, pseudonym);
    await recordAuditEvent(tx, { type: "user.removed", userId: by, details: { subject: pseudonym } });
    return "erased" as const;
  });
}
