/**
 * The operator's changes to federation: trusted issuers registered (or replaced), removed, and subjects linked to
 * local users. Each change is one transaction with its audit event; the caches of this process forget what changed
 * (other processes see it within a few seconds, as with clients).
 */
import { MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { Db } from "@/lib/db/prisma";
import { forgetFederatedUsers } from "@/lib/federation/federated-user";
import { forgetRemoteKeySets } from "@/lib/jwt/remote-key-sets";
import { issuerReaches } from "@/lib/federation/issuer-reach";
import { forgetTrustedIssuers, reachOf, type IssuerReach } from "@/lib/federation/trusted-issuers";
import { TrustedIssuerError, type TrustedIssuerRegistration } from "@/lib/admin/trusted-issuer-metadata";
import { PRINTABLE_ASCII } from "@/lib/http/printable-ascii";
import { FEDERATION_GRANTS } from "@/lib/oauth/grant-types";

export interface TrustedIssuerSummary extends Omit<TrustedIssuerRegistration, "reach"> {
  /** null: refused until the operator names whom the issuer speaks for. */
  reach: IssuerReach | null;
  linkedSubjects: number;
  createdAt: Date;
  updatedAt: Date;
}

function forgetCaches(jwksUri?: string | null): void {
  forgetTrustedIssuers();
  forgetFederatedUsers();
  if (jwksUri) forgetRemoteKeySets(jwksUri);
}

/** The companies exist, and none is the operator's when emails name the users: email never reaches an operator. */
async function checkReachCompanies(
  tx: Pick<Db, "company">,
  { reach, subjectMapping }: TrustedIssuerRegistration,
): Promise<void> {
  const companies = await tx.company.findMany({
    where: { id: { in: reach.companies } },
    select: { id: true, kind: true },
  });
  const missing = reach.companies.find((id) => !companies.some((company) => company.id === id));
  if (missing !== undefined) throw new TrustedIssuerError(`there is no company "${missing}"`);
  const operator = companies.find((company) => company.kind === "operator");
  if (operator && subjectMapping === "email")
    throw new TrustedIssuerError(
      `company "${operator.id}" is the operator: operator accounts are never reached by email mapping`,
    );
}

/** Registers the issuer, or replaces the registration of an issuer already trusted (its links stay). */
export async function addTrustedIssuer(
  db: Db,
  registration: TrustedIssuerRegistration,
  by?: string,
): Promise<"added" | "updated"> {
  const { issuer, clientIds, subjectMapping, reach } = registration;
  const row = {
    jwks: registration.jwks ? JSON.stringify(registration.jwks) : null,
    jwksUri: registration.jwksUri,
    subjectMapping,
    companies: JSON.stringify(reach.companies),
    emailDomains: JSON.stringify(reach.emailDomains),
  };
  const { outcome, oldUri } = await db.$transaction(async (tx) => {
    await checkReachCompanies(tx, registration);
    const clients = await tx.client.findMany({
      where: { id: { in: clientIds } },
      select: { id: true, tokenEndpointAuthMethod: true, grantTypes: true },
    });
    const missing = clientIds.find((id) => !clients.some((client) => client.id === id));
    if (missing !== undefined) throw new TrustedIssuerError(`there is no client "${missing}"`);
    const publicClient = clients.find((client) => client.tokenEndpointAuthMethod === "none");
    if (publicClient)
      throw new TrustedIssuerError(
        `client "${publicClient.id}" is public: only confidential clients may use federated grants`,
      );
    const withoutGrant = clients.find(
      (client) => !(JSON.parse(client.grantTypes) as string[]).some((grant) => FEDERATION_GRANTS.includes(grant)),
    );
    if (withoutGrant)
      throw new TrustedIssuerError(
        `client "${withoutGrant.id}" has neither federation grant in its grant_types (${FEDERATION_GRANTS.join(", ")})`,
      );
    const existing = await tx.trustedIssuer.findUnique({ where: { issuer } });
    if (existing) {
      await tx.trustedIssuer.update({ where: { issuer }, data: { ...row, updatedAt: new Date() } });
      await tx.trustedIssuerClient.deleteMany({ where: { issuer } });
    } else {
      await tx.trustedIssuer.create({ data: { issuer, ...row } });
    }
    await tx.trustedIssuerClient.createMany({ data: clientIds.map((clientId) => ({ issuer, clientId })) });
    const outcome = existing ? "updated" : "added";
    await recordAuditEvent(tx, {
      type: `federation.issuer_${outcome}`,
      userId: by,
      details: {
        issuer,
        clients: clientIds,
        subject: subjectMapping,
        companies: reach.companies,
        emailDomains: reach.emailDomains,
        keys: registration.jwksUri ?? "inline",
      },
    });
    return { outcome, oldUri: existing?.jwksUri } as const;
  });
  forgetCaches(oldUri);
  return outcome;
}

export async function listTrustedIssuers(db: Db): Promise<TrustedIssuerSummary[]> {
  const rows = await db.trustedIssuer.findMany({
    orderBy: { issuer: "asc" },
    include: {
      clients: { select: { clientId: true }, orderBy: { clientId: "asc" } },
      _count: { select: { subjects: true } },
    },
  });
  return rows.map((row) => ({
    issuer: row.issuer,
    jwks: row.jwks ? JSON.parse(row.jwks) : null,
    jwksUri: row.jwksUri,
    clientIds: row.clients.map((client) => client.clientId),
    subjectMapping: row.subjectMapping as TrustedIssuerSummary["subjectMapping"],
    reach: reachOf(row),
    linkedSubjects: row._count.subjects,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }));
}

/** Issuers registered before they had to name whom they speak for: their tokens are refused until that is set. */
export async function issuersWithoutReach(db: Db): Promise<string[]> {
  const rows = await db.trustedIssuer.findMany({
    where: { companies: null, emailDomains: null },
    select: { issuer: true },
    orderBy: { issuer: "asc" },
  });
  return rows.map((row) => row.issuer);
}

/** Removes the issuer with its links: its tokens are refused from now on. */
export async function removeTrustedIssuer(db: Db, issuer: string, by?: string): Promise<void> {
  const removed = await db.$transaction(async (tx) => {
    const existing = PRINTABLE_ASCII.test(issuer) ? await tx.trustedIssuer.findUnique({ where: { issuer } }) : null;
    if (!existing) throw new TrustedIssuerError(`"${issuer}" is not a trusted issuer`);
    await tx.trustedIssuer.delete({ where: { issuer } });
    await recordAuditEvent(tx, { type: "federation.issuer_removed", userId: by, details: { issuer } });
    return existing;
  });
  forgetCaches(removed.jwksUri);
}

/** Links the issuer's subject to the local user named by `username` (an email), replacing an earlier link. */
export async function linkSubject(
  db: Db,
  issuer: string,
  subject: string,
  username: string,
  by?: string,
): Promise<void> {
  if (subject === "" || subject.length > 255 || /[\u0000-\u001f\u007f]/.test(subject))
    throw new TrustedIssuerError("the subject must be 1 to 255 characters without control characters");
  if (username.length > MAX_USERNAME_LENGTH || /[\u0000-\u001f\u007f]/.test(username))
    throw new TrustedIssuerError(`there is no user "${username.replace(/[\u0000-\u001f\u007f]/g, "?")}"`);
  await db.$transaction(async (tx) => {
    const trusted = PRINTABLE_ASCII.test(issuer) ? await tx.trustedIssuer.findUnique({ where: { issuer } }) : null;
    if (!trusted) throw new TrustedIssuerError(`"${issuer}" is not a trusted issuer`);
    if (trusted.subjectMapping !== "link")
      throw new TrustedIssuerError(
        `"${issuer}" maps its subjects by verified email; links are for issuers registered with "subject": "link"`,
      );
    const user = await tx.user.findUnique({
      where: { email: username.toLowerCase() },
      select: { id: true, email: true, companyId: true, company: { select: { kind: true } } },
    });
    if (!user) throw new TrustedIssuerError(`there is no user "${username}"`);
    const reach = reachOf(trusted);
    if (!reach)
      throw new TrustedIssuerError(
        `"${issuer}" does not name whom it speaks for yet: register it again with companies or email_domains`,
      );
    if (!issuerReaches({ reach, subjectMapping: "link" }, user))
      throw new TrustedIssuerError(
        `user "${username}" is neither in a company nor in an email domain that "${issuer}" speaks for`,
      );
    await tx.federatedSubject.upsert({
      where: { issuer_subject: { issuer, subject } },
      create: { issuer, subject, userId: user.id },
      update: { userId: user.id },
    });
    await recordAuditEvent(tx, {
      type: "federation.subject_linked",
      userId: by,
      details: { issuer, subject, linkedUserId: user.id },
    });
  });
  forgetCaches();
}
