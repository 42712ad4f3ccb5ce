/** What the store contract suite runs against: a set of stores, and ids the backend's data already holds. */
import type { ClientRegistration } from "@/lib/store/models/client";
import type { Stores } from "@/lib/store/stores";

export interface StoreBackend {
  /** The stores under test; called inside tests, after the backend's setup ran. */
  stores(): Stores;
  /** Two registered clients and a user, for rows that must name existing ones. */
  subjects(): { clientId: string; otherClientId: string; userId: string; companyId: string };
  /** The SECRET_KEY the backend's signing keys are sealed with. */
  secretKey: string;
  /** Registers an approved client, with a secret when given, as the operator's registry does. */
  addClient(id: string, registration: ClientRegistration, secret?: string): Promise<void>;
}

export const NOW = new Date("2026-11-27T10:00:00.000Z");
export const later = (seconds: number, from = NOW) => new Date(from.getTime() + seconds * 1000);

/** A fresh random value, as tokens and codes are. */
export const freshValue = (label: string) => `${label}-${crypto.randomUUID()}`;

/** Saves a new active user of the subject company, for cases that need one of their own; their address and id. */
export async function newPerson(backend: StoreBackend, label: string): Promise<{ email: string; id: string }> {
  const email = `${freshValue(label)}@contract.example`;
  const name = { givenName: "Kim", familyName: "Muster", role: "user", emailVerified: true, passwordHash: "old-hash" };
  await backend.stores().users.save({ ...name, email, companyId: backend.subjects().companyId });
  return { email, id: (await backend.stores().users.findIdByEmail(email))! };
}
