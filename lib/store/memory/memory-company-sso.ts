/**
 * Companies' own providers, their domains and the linked upstream accounts in memory, with the database store's rules
 * (lib/store/company-sso-store.ts, company-domain-store.ts). Links of a removed user are dropped when next read, as
 * the database's cascade drops them at once.
 */
import { MAX_DOMAINS_PER_COMPANY } from "@/lib/config/policy";
import type { AuditStore } from "@/lib/store/audit-store";
import type { CompanyDomainStore } from "@/lib/store/company-domain-store";
import { sealedSecretOf, type CompanySsoStore } from "@/lib/store/company-sso-store";
import { TENANT_PLACEHOLDER, type CompanySso, type SsoIdentity } from "@/lib/store/models/company-sso";
import { memoryUserStore } from "@/lib/store/memory/memory-users";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

const identityKey = ({ issuer, subject }: Omit<SsoIdentity, "companyId">) => `${issuer}\n${subject}`;

function memoryCompanyDomainStore(tables: MemoryTables, audit: AuditStore): CompanyDomainStore {
  const domains = tables.companyDomains;
  return {
    async addDomain(added, by, now = new Date()) {
      if (!tables.companies.has(added.companyId)) return "not_found";
      const held = domains.get(added.domain);
      if (held && (held.companyId === added.companyId || held.verifiedAt)) return { takenBy: held.companyId };
      const claimed = [...domains.values()].filter((row) => row.companyId === added.companyId).length;
      if (claimed >= MAX_DOMAINS_PER_COMPANY) return "too_many_domains";
      if (held) {
        const details = { companyId: held.companyId, domain: added.domain, takenOverBy: added.companyId };
        await audit.record({ type: "company.domain_removed", userId: by, details });
      }
      const row = { ...added, verifiedAt: added.verifiedBy ? now : null, createdAt: now };
      domains.set(added.domain, row);
      const details = { companyId: added.companyId, domain: added.domain, verifiedBy: added.verifiedBy };
      await audit.record({ type: "company.domain_added", userId: by, details });
      return copy(row);
    },
    listDomains: async (companyId) =>
      copy([...domains.values()].filter((row) => row.companyId === companyId)).sort((a, b) =>
        a.domain < b.domain ? -1 : 1,
      ),
    findDomain: async (domain) => copy(domains.get(domain) ?? null),
    async verifyDomain({ domain, companyId, verificationToken }, method, by, now = new Date()) {
      const row = domains.get(domain);
      if (row?.companyId !== companyId || row.verificationToken !== verificationToken) return null;
      if (!row.verifiedAt) {
        Object.assign(row, { verifiedAt: now, verifiedBy: method });
        const details = { companyId, domain, verifiedBy: method };
        await audit.record({ type: "company.domain_verified", userId: by, details });
      }
      return copy(row);
    },
    async removeDomain(domain, by) {
      const row = domains.get(domain);
      if (!row) return null;
      domains.delete(domain);
      await audit.record({ type: "company.domain_removed", userId: by, details: { companyId: row.companyId, domain } });
      return copy(row);
    },
  };
}

/** Turns a switch of the company's provider, audited when it changed. */
async function switchSso(
  tables: MemoryTables,
  audit: AuditStore,
  companyId: string,
  which: "enabled" | "ssoOnly",
  on: boolean,
  by?: string,
): Promise<"changed" | "unchanged" | "not_found"> {
  const sso = tables.companySso.get(companyId);
  if (!sso) return "not_found";
  if (sso[which] === on) return "unchanged";
  sso[which] = on;
  const type = which === "ssoOnly" ? "company.sso_only_changed" : on ? "company.sso_enabled" : "company.sso_disabled";
  await audit.record({ type, userId: by, details: { companyId, [which]: on } });
  return "changed";
}

export function memoryCompanySsoStore(tables: MemoryTables, audit: AuditStore): CompanySsoStore {
  const configs = tables.companySso;
  /** The link of an upstream account, unless its user is gone. */
  const linked = (identity: Omit<SsoIdentity, "companyId">) => {
    const row = tables.ssoIdentities.get(identityKey(identity));
    if (row && !tables.users.has(row.userId)) tables.ssoIdentities.delete(identityKey(identity));
    return tables.ssoIdentities.get(identityKey(identity));
  };
  const link = async (identity: SsoIdentity, userId: string, createdUser: boolean, now: Date) => {
    const { issuer, subject, companyId } = identity;
    tables.ssoIdentities.set(identityKey(identity), { userId, companyId, createdAt: now, lastSignInAt: now });
    const details = { companyId, issuer, subject, createdUser };
    await audit.record({ type: "company.sso_identity_linked", userId, details });
  };
  return {
    ...memoryCompanyDomainStore(tables, audit),
    find: async (companyId) => copy(configs.get(companyId) ?? null),
    async save(companyId, write, writer, now = new Date()) {
      if (!tables.companies.has(companyId)) return "not_found";
      const existing = configs.get(companyId) ?? null;
      const secret = sealedSecretOf(existing, write, writer);
      if (typeof secret === "string") return secret;
      const { clientSecret: _secret, enabled, ssoOnly, ...settings } = copy(write);
      const sso: CompanySso = {
        companyId,
        ...settings,
        sealedClientSecret: secret.sealed,
        enabled: enabled ?? existing?.enabled ?? false,
        ssoOnly: ssoOnly ?? existing?.ssoOnly ?? false,
        registeredByOperator: writer.byOperator,
        testedAt: null,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      };
      configs.set(companyId, sso);
      const { issuer, clientId } = sso;
      const secretChanged = secret.sealed !== (existing?.sealedClientSecret ?? null);
      const details = { companyId, issuer, clientId, enabled: sso.enabled, ssoOnly: sso.ssoOnly, secretChanged };
      await audit.record({
        type: "company.sso_set",
        userId: writer.by,
        details: { ...details, byOperator: writer.byOperator, added: !existing },
      });
      return copy(sso);
    },
    setEnabled: (companyId, on, by) => switchSso(tables, audit, companyId, "enabled", on, by),
    setSsoOnly: (companyId, on, by) => switchSso(tables, audit, companyId, "ssoOnly", on, by),
    async markTested(companyId, settingsOf, by, now = new Date()) {
      const sso = configs.get(companyId);
      if (sso?.updatedAt.getTime() !== settingsOf.getTime()) return false;
      sso.testedAt = now;
      await audit.record({ type: "company.sso_tested", userId: by, details: { companyId } });
      return true;
    },
    async remove(companyId, by) {
      if (!configs.delete(companyId)) return false;
      await audit.record({ type: "company.sso_removed", userId: by, details: { companyId } });
      return true;
    },
    async ssoForEmailDomain(domain) {
      const row = tables.companyDomains.get(domain);
      const sso = row && configs.get(row.companyId);
      return row?.verifiedAt && sso?.enabled ? { companyId: sso.companyId, config: copy(sso) } : null;
    },
    enabledForIssuer: async (issuer) =>
      copy([...configs.values()])
        .filter((sso) => sso.enabled && (sso.issuer === issuer || sso.issuer.includes(TENANT_PLACEHOLDER)))
        .sort((a, b) => (a.companyId < b.companyId ? -1 : 1)),
    async findIdentity(identity) {
      const row = linked(identity);
      return row?.companyId === identity.companyId ? { userId: row.userId, lastSignInAt: row.lastSignInAt } : null;
    },
    async linkIdentity(identity, userId, now = new Date()) {
      const row = linked(identity);
      if (row) return row.userId === userId && row.companyId === identity.companyId ? "linked" : "taken";
      await link(identity, userId, false, now);
      return "linked";
    },
    async createUserWithIdentity(user, identity, now = new Date()) {
      if (linked(identity)) return "identity_taken";
      const users = memoryUserStore(tables);
      if (await users.findIdByEmail(user.email)) return "email_taken";
      await users.save(user);
      const userId = (await users.findIdByEmail(user.email))!;
      await link(identity, userId, true, now);
      return { userId };
    },
    async touchIdentity(identity, now = new Date()) {
      const row = linked(identity);
      if (row) row.lastSignInAt = now;
      return row !== undefined;
    },
  };
}
