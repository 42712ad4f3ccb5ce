/** Catalog-service tickets in memory, with the database store's rules (lib/store/ticket-store.ts). */
import { hashToken } from "@/lib/crypto/tokens";
import type { TicketStore } from "@/lib/store/ticket-store";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

export interface StoredTicket {
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export function memoryTicketStore(tables: MemoryTables): TicketStore {
  return {
    async save(value, userId, createdAt, expiresAt) {
      const hash = hashToken(value);
      if (tables.tickets.has(hash)) throw new Error("a ticket of this value is stored already");
      tables.tickets.set(hash, { userId, createdAt, expiresAt, revokedAt: null });
    },
    async findWithUser(value) {
      const ticket = tables.tickets.get(hashToken(value));
      const user = ticket && tables.users.get(ticket.userId);
      return ticket && user ? copy({ expiresAt: ticket.expiresAt, revokedAt: ticket.revokedAt, user }) : null;
    },
  };
}
