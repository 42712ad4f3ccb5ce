/**
 * Tickets of the catalog services (`tickets`), stored by the SHA-256 of their value, never in the clear. Every check
 * reads the ticket with its user in one query, so a ticket of a user deactivated since is refused at once.
 */
import { hashToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";
import type { User } from "@/lib/store/models/user";

interface TicketWithUser {
  expiresAt: Date;
  revokedAt: Date | null;
  user: User;
}

export interface TicketStore {
  save(value: string, userId: string, createdAt: Date, expiresAt: Date): Promise<void>;
  /** The ticket of this value with its user, whatever its state, or null. */
  findWithUser(value: string): Promise<TicketWithUser | null>;
}

export function prismaTicketStore(db: Db): TicketStore {
  return {
    async save(value, userId, createdAt, expiresAt) {
      await db.ticket.create({ data: { ticketHash: hashToken(value), userId, createdAt, expiresAt } });
    },
    findWithUser: (value) =>
      db.ticket.findUnique({
        where: { ticketHash: hashToken(value) },
        select: { expiresAt: true, revokedAt: true, user: true },
      }),
  };
}
