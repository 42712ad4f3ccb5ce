/**
 * Tickets of the catalog services: a GUID handed out by SilentLogin, stored as its SHA-256 hash, valid for
 * TICKET_LIFETIME_SECONDS (8 hours). A ticket of an unknown, expired or revoked kind is 401 for the services, a
 * ticket of a user who was deactivated since is 403.
 */
import { TICKET_LIFETIME_SECONDS } from "@/lib/config/policy";
import { randomUUID } from "node:crypto";
import { CatalogServiceError } from "@/lib/errors/catalog-service-error";
import type { User } from "@/lib/store/models/user";
import type { TicketStore } from "@/lib/store/ticket-store";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function issueTicket(
  tickets: TicketStore,
  userId: string,
  now = new Date(),
): Promise<{ ticket: string; expires: Date }> {
  const ticket = randomUUID();
  const expires = new Date(now.getTime() + TICKET_LIFETIME_SECONDS * 1000);
  await tickets.save(ticket.toLowerCase(), userId, now, expires);
  return { ticket, expires };
}

/** The user a ticket stands for; throws CatalogServiceError with the status the catalog services answer. */
export async function userOfTicket(tickets: TicketStore, ticket: string, now = new Date()): Promise<User> {
  if (!GUID.test(ticket)) throw new CatalogServiceError(400, "The ticket parameter must be a GUID.");
  const row = await tickets.findWithUser(ticket.toLowerCase());
  if (!row || row.revokedAt)
    throw new CatalogServiceError(401, "The ticket is not valid. Sign in again to get a new one.");
  if (row.expiresAt <= now)
    throw new CatalogServiceError(401, "The ticket has expired. Sign in again to get a new one.");
  if (!row.user.active) throw new CatalogServiceError(403, "The user of this ticket is no longer active.");
  return row.user;
}
