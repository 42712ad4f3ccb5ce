/**
 * Remembers a user's consent decision for a client. A decision covers the scopes that were asked: those the user
 * ticked are granted, those unticked are taken back, and scopes granted earlier but not asked about stay granted.
 */
import type { ConsentStore } from "@/lib/store/consent-store";

export async function saveConsent(
  consents: ConsentStore,
  userId: string,
  clientId: string,
  asked: string[],
  granted: string[],
  now = new Date(),
): Promise<void> {
  await consents.save(
    userId,
    clientId,
    (current) => [...new Set([...current.filter((scope) => !asked.includes(scope)), ...granted])],
    { granted, declined: asked.filter((s) => !granted.includes(s)) },
    now,
  );
}
