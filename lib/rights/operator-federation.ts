/**
 * The operator pages' and the management API's access to federation (/admin/federation, /manage/v1/issuers): the
 * trusted issuers with their clients and links. Every function requires an operator or an operator's management
 * client with the scope; changes go through the registry of `federation add|remove` (lib/admin/federation-registry.ts)
 * with the same validation (lib/admin/trusted-issuer-metadata.ts).
 */
import "server-only";
import type { TrustedIssuerSummary } from "@/lib/store/models/trusted-issuer";
import { requirePlatformAdmin, requirePlatformReader, type Actor } from "@/lib/rights/actor";
import { parseTrustedIssuer } from "@/lib/admin/trusted-issuer-metadata";
import { addTrustedIssuer, removeTrustedIssuer, type IssuerSaveMode } from "@/lib/admin/federation-registry";

export type { TrustedIssuerSummary };

const SCOPES = { read: "manage.issuers.read", write: "manage.issuers.write" };
const WRITE = SCOPES.write;

export async function listTrustedIssuers(actor: Actor): Promise<TrustedIssuerSummary[]> {
  const { context } = requirePlatformReader(actor, SCOPES);
  return context.stores.trustedIssuers.list();
}

/** One trusted issuer by its issuer URL, or undefined. */
export async function trustedIssuerFor(actor: Actor, issuer: string): Promise<TrustedIssuerSummary | undefined> {
  const { context } = requirePlatformReader(actor, SCOPES);
  return (await context.stores.trustedIssuers.list()).find((trusted) => trusted.issuer === issuer);
}

/** Trusts an issuer, or replaces its registration, from the JSON `federation add` reads. */
export async function saveTrustedIssuer(
  actor: Actor,
  description: Record<string, unknown>,
  mode: Exclude<IssuerSaveMode, "either">,
): Promise<string> {
  const { context, by } = requirePlatformAdmin(actor, WRITE);
  const registration = parseTrustedIssuer(description, context.config);
  await addTrustedIssuer(context.stores, registration, by, mode);
  return registration.issuer;
}

/** Stops trusting an issuer; its links go with it. */
export async function untrustIssuer(actor: Actor, issuer: string): Promise<void> {
  const { context, by } = requirePlatformAdmin(actor, WRITE);
  await removeTrustedIssuer(context.stores, issuer, by);
}
