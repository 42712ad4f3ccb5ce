/**
 * The partners' authorization servers the operator trusts (`trusted_issuers`), as the token endpoint needs them:
 * their keys, the clients allowed to use their tokens, and how their subjects name local users. Cached per process
 * for a few seconds like clients; changes made in this process are seen at once through forgetTrustedIssuers().
 */
import { ISSUER_CACHE_SECONDS } from "@/lib/config/policy";
import type { JSONWebKeySet } from "jose";
import { processCache } from "@/lib/cache/process-cache";
import type { Db } from "@/lib/db/prisma";
import type { KeySource } from "@/lib/jwt/signed-jwt";

export type SubjectMapping = "email" | "link";

/** Whom an issuer may speak for: users of these companies, or with an email address in these domains. */
export interface IssuerReach {
  companies: string[];
  emailDomains: string[];
}

export interface TrustedIssuer {
  issuer: string;
  keys: KeySource;
  clientIds: ReadonlySet<string>;
  subjectMapping: SubjectMapping;
  /** null: registered before issuers had to name it; refused until the operator sets it. */
  reach: IssuerReach | null;
}

const cache = processCache(
  "trustedIssuers",
  () => new Map<string, { loadedAt: number; issuer: Promise<TrustedIssuer | null> }>(),
);

function keySourceOf(row: { jwks: string | null; jwksUri: string | null }): KeySource {
  return row.jwks ? { jwks: JSON.parse(row.jwks) as JSONWebKeySet } : { jwksUri: row.jwksUri! };
}

export function reachOf(row: { companies: string | null; emailDomains: string | null }): IssuerReach | null {
  if (row.companies === null && row.emailDomains === null) return null;
  return {
    companies: JSON.parse(row.companies ?? "[]") as string[],
    emailDomains: JSON.parse(row.emailDomains ?? "[]") as string[],
  };
}

async function loadIssuer(db: Db, issuer: string): Promise<TrustedIssuer | null> {
  const row = await db.trustedIssuer.findUnique({
    where: { issuer },
    include: { clients: { select: { clientId: true } } },
  });
  if (!row) return null;
  return {
    issuer: row.issuer,
    keys: keySourceOf(row),
    clientIds: new Set(row.clients.map((client) => client.clientId)),
    subjectMapping: row.subjectMapping as SubjectMapping,
    reach: reachOf(row),
  };
}

export function findTrustedIssuer(db: Db, issuer: string, now = Date.now()): Promise<TrustedIssuer | null> {
  const entry = cache.get(issuer);
  if (entry && now - entry.loadedAt < ISSUER_CACHE_SECONDS * 1000) return entry.issuer;
  // Unknown issuers are not cached: the map holds only what the operator registered, whatever callers send.
  const loaded = loadIssuer(db, issuer).then((found) => {
    if (!found) cache.delete(issuer);
    return found;
  });
  cache.set(issuer, { loadedAt: now, issuer: loaded });
  loaded.catch(() => cache.delete(issuer));
  return loaded;
}

export function forgetTrustedIssuers(): void {
  cache.clear();
}
