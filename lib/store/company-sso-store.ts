/**
 * A company's own sign-in (issue 46), behind one interface: its upstream OpenID Connect provider (`company_sso`, one
 * per company, the client secret sealed with SECRET_KEY; here), the email domains it claims (company-domain-store.ts)
 * and the upstream accounts linked to local users (company-sso-identity-store.ts). Every change is one transaction
 * with its audit event. Nothing is cached: the login page asks once per email entered and the upstream client once
 * per sign-in, and a change (a provider turned off) must count at once.
 */
import { seal, unseal } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/prisma";
import { recordAuditEvent } from "@/lib/store/audit-store";
import { bindDb } from "@/lib/store/bind-db";
import { companyExists } from "@/lib/store/company-store";
import { prismaCompanyDomainStore, type CompanyDomainStore } from "@/lib/store/company-domain-store";
import { prismaCompanySsoIdentityStore, type CompanySsoIdentityStore } from "@/lib/store/company-sso-identity-store";
import type { CompanySso, CompanySsoWrite, SsoAuthMethod, SsoClaimMapping } from "@/lib/store/models/company-sso";
import { STANDARD_CLAIMS, TENANT_PLACEHOLDER } from "@/lib/store/models/company-sso";

const SECRET_PURPOSE = "company-sso-secret";

const sealClientSecret = (secret: string, secretKey: string): string => seal(secret, secretKey, SECRET_PURPOSE);

/** The client secret in the clear, for the upstream's token endpoint; null when the configuration holds none. */
export function openClientSecret(sso: Pick<CompanySso, "sealedClientSecret">, secretKey: string): string | null {
  return sso.sealedClientSecret === null ? null : unseal(sso.sealedClientSecret, secretKey, SECRET_PURPOSE);
}

/** Who writes a configuration: the acting user (none from the CLI), whether an operator, and SECRET_KEY to seal with. */
export interface SsoWriter {
  secretKey: string;
  byOperator: boolean;
  by?: string;
}

/** The mapping as stored (JSON); the standard claim names stand in for those it leaves out (the default is {}). */
const claimsOf = (text: string): SsoClaimMapping => ({ ...STANDARD_CLAIMS, ...(JSON.parse(text) as object) });

interface SsoRow extends Omit<CompanySso, "sealedClientSecret" | "authMethod" | "claims"> {
  clientSecretSealed: string | null;
  authMethod: string;
  claims: string;
}

const ssoOf = ({ clientSecretSealed, authMethod, claims, ...row }: SsoRow): CompanySso => ({
  ...row,
  sealedClientSecret: clientSecretSealed,
  authMethod: authMethod as SsoAuthMethod,
  claims: claimsOf(claims),
});

async function findCompanySso(db: Db, companyId: string): Promise<CompanySso | null> {
  const row = await db.companySso.findUnique({ where: { companyId } });
  return row && ssoOf(row);
}

/** Why a write stores no secret where its method needs one: none is stored, or the stored one is not for it. */
export type SecretRefusal = "secret_needed" | "secret_not_kept";

/**
 * The sealed secret a write leaves stored: none with private_key_jwt, the new one, or the stored one only while the
 * issuer, client id and method it was given for stay and no company administrator rewrites an operator's registration
 * (else the writer could have it sent to a server of their choosing).
 */
export function sealedSecretOf(
  stored: CompanySso | null,
  write: CompanySsoWrite,
  writer: SsoWriter,
): { sealed: string | null } | SecretRefusal {
  if (write.authMethod === "private_key_jwt") return { sealed: null };
  if (write.clientSecret !== undefined) return { sealed: sealClientSecret(write.clientSecret, writer.secretKey) };
  if (!stored?.sealedClientSecret) return "secret_needed";
  const { issuer, clientId, authMethod } = write;
  const sameClient = stored.issuer === issuer && stored.clientId === clientId && stored.authMethod === authMethod;
  const sameTrust = writer.byOperator || !stored.registeredByOperator;
  return sameClient && sameTrust ? { sealed: stored.sealedClientSecret } : "secret_not_kept";
}

/**
 * Sets the company's provider (creating or replacing its settings), audited. An untested configuration: the
 * test mark goes. "not_found" when there is no such company; a SecretRefusal, writing nothing, when the write keeps
 * no secret its method needs.
 */
async function saveCompanySso(
  db: Db,
  companyId: string,
  write: CompanySsoWrite,
  writer: SsoWriter,
  now = new Date(),
): Promise<CompanySso | "not_found" | SecretRefusal> {
  const { clientSecret: _secret, enabled, ssoOnly, claims, ...settings } = write;
  return db.$transaction(async (tx) => {
    if (!(await companyExists(tx, companyId))) return "not_found" as const;
    const existing = await tx.companySso.findUnique({ where: { companyId } });
    const stored = existing && ssoOf(existing);
    const secret = sealedSecretOf(stored, write, writer);
    if (typeof secret === "string") return secret;
    const data = {
      ...settings,
      claims: JSON.stringify(claims),
      clientSecretSealed: secret.sealed,
      ...(enabled === undefined ? {} : { enabled }),
      ...(ssoOnly === undefined ? {} : { ssoOnly }),
      registeredByOperator: writer.byOperator,
      testedAt: null,
      updatedAt: now,
    };
    const row = existing
      ? await tx.companySso.update({ where: { companyId }, data })
      : await tx.companySso.create({ data: { companyId, ...data, createdAt: now } });
    await recordAuditEvent(tx, {
      type: "company.sso_set",
      userId: writer.by,
      details: {
        companyId,
        issuer: row.issuer,
        clientId: row.clientId,
        enabled: row.enabled,
        ssoOnly: row.ssoOnly,
        byOperator: writer.byOperator,
        secretChanged: secret.sealed !== (stored?.sealedClientSecret ?? null),
        added: !existing,
      },
    });
    return ssoOf(row);
  });
}

/**
 * Turns the provider on or off, or SSO-only on or off, audited when it changed. Settings are not touched, so
 * `updatedAt` (what a test sign-in is recorded against) stays.
 */
async function switchCompanySso(
  db: Db,
  companyId: string,
  which: "enabled" | "ssoOnly",
  on: boolean,
  by?: string,
): Promise<"changed" | "unchanged" | "not_found"> {
  const flag = (value: boolean) => (which === "enabled" ? { enabled: value } : { ssoOnly: value });
  return db.$transaction(async (tx) => {
    const { count } = await tx.companySso.updateMany({ where: { companyId, ...flag(!on) }, data: flag(on) });
    if (count === 0) return (await tx.companySso.count({ where: { companyId } })) ? "unchanged" : "not_found";
    const type = which === "ssoOnly" ? "company.sso_only_changed" : on ? "company.sso_enabled" : "company.sso_disabled";
    await recordAuditEvent(tx, { type, userId: by, details: { companyId, ...flag(on) } });
    return "changed";
  });
}

/** Records a test sign-in that succeeded, only while the settings are those tested (written at `settingsOf`). */
function markCompanySsoTested(db: Db, companyId: string, settingsOf: Date, by?: string, now = new Date()) {
  return db.$transaction(async (tx) => {
    const { count } = await tx.companySso.updateMany({
      where: { companyId, updatedAt: settingsOf },
      data: { testedAt: now },
    });
    if (count === 1) await recordAuditEvent(tx, { type: "company.sso_tested", userId: by, details: { companyId } });
    return count === 1;
  });
}

/** Removes the company's provider (its domains and linked accounts stay), audited; false when it had none. */
function removeCompanySso(db: Db, companyId: string, by?: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.companySso.deleteMany({ where: { companyId } });
    if (count === 1) await recordAuditEvent(tx, { type: "company.sso_removed", userId: by, details: { companyId } });
    return count === 1;
  });
}

/** The company whose verified domain this is, with its provider, when that is turned on; else null. */
async function ssoForEmailDomain(db: Db, domain: string): Promise<{ companyId: string; config: CompanySso } | null> {
  const row = await db.companyDomain.findUnique({
    where: { domain },
    select: { verifiedAt: true, company: { select: { sso: true } } },
  });
  const sso = row?.company.sso;
  return row?.verifiedAt && sso?.enabled ? { companyId: sso.companyId, config: ssoOf(sso) } : null;
}

async function enabledSsoForIssuer(db: Db, issuer: string): Promise<CompanySso[]> {
  const rows = await db.companySso.findMany({
    where: { enabled: true, OR: [{ issuer }, { issuer: { contains: TENANT_PLACEHOLDER } }] },
    orderBy: { companyId: "asc" },
  });
  return rows.map(ssoOf);
}

export interface CompanySsoStore extends CompanyDomainStore, CompanySsoIdentityStore {
  find(companyId: string): Promise<CompanySso | null>;
  /**
   * Sets the provider, its secret sealed (undefined keeps the stored one where sealedSecretOf allows); "not_found":
   * no such company.
   */
  save(
    companyId: string,
    write: CompanySsoWrite,
    writer: SsoWriter,
    now?: Date,
  ): Promise<CompanySso | "not_found" | SecretRefusal>;
  setEnabled(companyId: string, enabled: boolean, by?: string): Promise<"changed" | "unchanged" | "not_found">;
  setSsoOnly(companyId: string, ssoOnly: boolean, by?: string): Promise<"changed" | "unchanged" | "not_found">;
  /** A test sign-in succeeded with the settings written at `settingsOf` (the config's updatedAt); false: changed since. */
  markTested(companyId: string, settingsOf: Date, by?: string, now?: Date): Promise<boolean>;
  remove(companyId: string, by?: string): Promise<boolean>;
  /** What the login page asks: the provider of the company whose verified domain this is, when turned on. */
  ssoForEmailDomain(domain: string): Promise<{ companyId: string; config: CompanySso } | null>;
  /**
   * Where a back-channel logout token may come from: the providers turned on that are registered as this issuer, or as
   * a `{tenantid}` template (which template, filled with its tenant, is the issuer is the caller's to tell).
   */
  enabledForIssuer(issuer: string): Promise<CompanySso[]>;
}

export const prismaCompanySsoStore = (db: Db): CompanySsoStore => ({
  ...prismaCompanyDomainStore(db),
  ...prismaCompanySsoIdentityStore(db),
  ...bindDb(db, {
    find: findCompanySso,
    save: saveCompanySso,
    setEnabled: (db: Db, companyId: string, on: boolean, by?: string) =>
      switchCompanySso(db, companyId, "enabled", on, by),
    setSsoOnly: (db: Db, companyId: string, on: boolean, by?: string) =>
      switchCompanySso(db, companyId, "ssoOnly", on, by),
    markTested: markCompanySsoTested,
    remove: removeCompanySso,
    ssoForEmailDomain,
    enabledForIssuer: enabledSsoForIssuer,
  }),
});
