/** Ending everything a sign-in left behind, in the memory tables: what lib/store/user-admin-store.ts's signOutUsers does. */
import type { MemoryTables } from "@/lib/store/memory/memory-tables";

export function signOutInMemory(
  tables: MemoryTables,
  userIds: string[],
  now: Date,
  options: { keepSessionId?: string; tickets?: boolean } = {},
): string[] {
  const ended: string[] = [];
  for (const session of tables.loginSessions.values())
    if (userIds.includes(session.userId) && !session.endedAt && session.id !== options.keepSessionId) {
      session.endedAt = now;
      ended.push(session.id);
    }
  for (const token of tables.refreshTokens.values())
    if (userIds.includes(token.userId) && !token.revokedAt) token.revokedAt = now;
  for (const [hash, code] of tables.authorizationCodes)
    if (userIds.includes(code.userId) && !code.consumedAt) tables.authorizationCodes.delete(hash);
  for (const userId of userIds) {
    const user = tables.users.get(userId);
    if (user) user.signedOutAt = now;
  }
  if (options.tickets)
    for (const ticket of tables.tickets.values())
      if (userIds.includes(ticket.userId) && !ticket.revokedAt) ticket.revokedAt = now;
  return ended;
}
