/** Trusted issuers and the subjects linked to users, in memory, with the database store's rules (trusted-issuer-store.ts). */
import type { AuditStore } from "@/lib/store/audit-store";
import type { LinkRules, TrustedIssuerStore } from "@/lib/store/trusted-issuer-store";
import type { TrustedIssuerRegistration } from "@/lib/store/models/trusted-issuer";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

const subjectKey = (issuer: string, subject: string) => `${issuer}\n${subject}`;

export function memoryTrustedIssuerStore(tables: MemoryTables, audit: AuditStore): TrustedIssuerStore {
  const issuers = tables.trustedIssuers;
  const userByEmail = (email: string) => [...tables.users.values()].find((user) => user.email === email);
  const linksOf = (issuer: string) =>
    [...tables.federatedSubjects.keys()].filter((key) => key.startsWith(`${issuer}\n`));
  return {
    async find(issuer) {
      const stored = issuers.get(issuer);
      if (!stored) return null;
      const { jwks, jwksUri, clientIds, subjectMapping, reach } = copy(stored.registration);
      return {
        issuer,
        keys: jwks ? { jwks } : { jwksUri: jwksUri! },
        clientIds: new Set(clientIds),
        subjectMapping,
        reach,
      };
    },
    findUserIdByEmail: async (email) => userByEmail(email)?.id ?? null,
    findLinkedUserId: async (issuer, subject) => tables.federatedSubjects.get(subjectKey(issuer, subject)) ?? null,
    async save(registration, check, event) {
      const existing = issuers.get(registration.issuer);
      await check({
        registered: existing !== undefined,
        companyKinds: async (companyIds) =>
          companyIds.flatMap((id) => {
            const company = tables.companies.get(id);
            return company ? [{ id, kind: company.kind }] : [];
          }),
        clientGrants: async (clientIds) =>
          clientIds.flatMap((id) => {
            const stored = tables.clients.get(id)?.client;
            return stored
              ? [{ id, tokenEndpointAuthMethod: stored.tokenEndpointAuthMethod, grantTypes: [...stored.grantTypes] }]
              : [];
          }),
      });
      const now = new Date();
      issuers.set(registration.issuer, {
        registration: copy(registration),
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      });
      const outcome = existing ? "updated" : "added";
      await audit.record(event(outcome));
      return { outcome, oldJwksUri: existing?.registration.jwksUri };
    },
    async list() {
      return [...issuers.values()]
        .sort((a, b) => (a.registration.issuer < b.registration.issuer ? -1 : 1))
        .map(({ registration, createdAt, updatedAt }) => ({
          ...copy(registration),
          clientIds: [...registration.clientIds].sort(),
          linkedSubjects: linksOf(registration.issuer).length,
          createdAt,
          updatedAt,
        }));
    },
    listWithoutReach: async () =>
      [...issuers.values()]
        .filter((stored) => stored.registration.reach === null)
        .map((stored) => stored.registration.issuer),
    async remove(issuer, event) {
      const existing = issuers.get(issuer);
      if (!existing) return null;
      issuers.delete(issuer);
      for (const key of linksOf(issuer)) tables.federatedSubjects.delete(key);
      await audit.record(event);
      return { jwksUri: existing.registration.jwksUri };
    },
    async link({ issuer, subject, email }, rules: LinkRules, event) {
      const stored = issuers.get(issuer);
      rules.issuer(stored ? { subjectMapping: stored.registration.subjectMapping } : null);
      const user = userByEmail(email);
      const company = user && tables.companies.get(user.companyId);
      const found =
        user && company
          ? { id: user.id, email: user.email, companyId: user.companyId, company: { kind: company.kind } }
          : null;
      rules.user(found, stored?.registration.reach ?? null);
      tables.federatedSubjects.set(subjectKey(issuer, subject), found.id);
      await audit.record(event(found.id));
    },
  };
}

/** A registration as stored: `reach` null for an issuer registered before it had to be named. */
export interface StoredTrustedIssuer {
  registration: Omit<TrustedIssuerRegistration, "reach"> & { reach: TrustedIssuerRegistration["reach"] | null };
  createdAt: Date;
  updatedAt: Date;
}
