/**
 * Who changes something through the management API: the client whose token the call carried. The API runs each call
 * inside `actingAsClient`, and every audit event the call records names that client, however deep in the rules of the
 * pages it is written (those name a person by `userId`).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { processCache } from "@/lib/observability/process-cache";

const actingClients = processCache("auditActingClient", () => new AsyncLocalStorage<string>());

export const actingAsClient = <T>(clientId: string, work: () => Promise<T>): Promise<T> =>
  actingClients.run(clientId, work);

/** The management client of the call under way, if any. */
export const actingClient = (): string | undefined => actingClients.getStore();
