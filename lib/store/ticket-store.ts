/**
 * Tickets of the catalog services (`tickets`), stored by the SHA-256 of their value, never in the clear. Every check
 * reads the ticket with its user in one query, so a ticket of a user deactivated since is refused at once.
 */
import { hashToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";
import type { User } from "@/lib/db/rows";

export interface TicketWithUser {
  expiresAt: Date;
  revokedAt: Date | null;
  user: User;
}

export async function storeTicket(db: Db, value: string, userId: string, createdAt: Date, expiresAt: Date) {
  await db.ticket.create({ data: { ticketHash: hashToken(value), userId, createdAt, expiresAt } });
}

export function findTicketWithUser(db: Db, value: string): Promise<TicketWithUser | null> {
  return db.ticket.findUnique({ where: { ticketHash: hashToken(value) }, include: { user: true } });
}
