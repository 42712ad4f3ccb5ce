/**
 * The operator pages' access to federation: the trusted issuers with their clients and links. Operators only, like
 * the client list; changes are made with the CLI (`npm run admin -- federation …`).
 */
import "server-only";
import type { TrustedIssuerSummary } from "@/lib/store/models/trusted-issuer";
import { requireOperator, type Actor } from "@/lib/rights/actor";

export type { TrustedIssuerSummary };

export async function listTrustedIssuers(actor: Actor): Promise<TrustedIssuerSummary[]> {
  const { context } = requireOperator(actor);
  return context.stores.trustedIssuers.list();
}
