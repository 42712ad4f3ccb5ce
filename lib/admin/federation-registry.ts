/**
 * The operator's changes to federation: trusted issuers registered (or replaced), removed, and subjects linked to
 * local users. Each change is one transaction with its audit event (lib/store/trusted-issuer-store.ts); the caches of
 * this process forget what changed (other processes see it within a few seconds, as with clients).
 */
import { MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import type { Stores } from "@/lib/store/stores";
import { forgetRemoteKeySets } from "@/lib/jwt/remote-key-sets";
import { issuerReaches } from "@/lib/oauth/federation/issuer-reach";
import { forgetFederatedUsers, forgetTrustedIssuers, type IssuerCheckLookups } from "@/lib/store/trusted-issuer-store";
import { TrustedIssuerError } from "@/lib/admin/trusted-issuer-metadata";
import type { TrustedIssuerRegistration, TrustedIssuerSummary } from "@/lib/store/models/trusted-issuer";
import { PRINTABLE_ASCII } from "@/lib/http/printable-ascii";
import { FEDERATION_GRANTS } from "@/lib/oauth/grant-types";
import { OptiGateError } from "@/lib/errors/optigate-error";

/** An issuer that is not trusted where it must be, or is where it must not be (the API's 404 and 409). */
export class FederationRegistryError extends OptiGateError<"not_found" | "already_exists"> {
  constructor(
    readonly code: "not_found" | "already_exists",
    message: string,
  ) {
    super(message);
  }
}

/** An issuer as `federation add` reads it. */
export const describedIssuer = (issuer: TrustedIssuerSummary): Record<string, unknown> => ({
  issuer: issuer.issuer,
  ...(issuer.jwksUri ? { jwks_uri: issuer.jwksUri } : { jwks: issuer.jwks }),
  clients: issuer.clientIds,
  subject: issuer.subjectMapping,
  companies: issuer.reach?.companies ?? [],
  email_domains: issuer.reach?.emailDomains ?? [],
});

/** An issuer as JSON, the same for `federation list --json` and /manage/v1/issuers. */
export const trustedIssuerJson = (issuer: TrustedIssuerSummary) => ({
  ...describedIssuer(issuer),
  linked_subjects: issuer.linkedSubjects,
  created_at: issuer.createdAt.toISOString(),
  updated_at: issuer.updatedAt.toISOString(),
});

const notTrusted = (issuer: string) =>
  new FederationRegistryError("not_found", `"${issuer.slice(0, 300)}" is not a trusted issuer`);

/** `add`: only an issuer not trusted yet; `replace`: only one trusted already; `either` (`federation add`): both. */
export type IssuerSaveMode = "add" | "replace" | "either";

function forgetCaches(jwksUri?: string | null): void {
  forgetTrustedIssuers();
  forgetFederatedUsers();
  if (jwksUri) forgetRemoteKeySets(jwksUri);
}

/** The companies exist, and none is the operator's when emails name the users: email never reaches an operator. */
async function checkReachCompanies(lookups: IssuerCheckLookups, { reach, subjectMapping }: TrustedIssuerRegistration) {
  const companies = await lookups.companyKinds(reach.companies);
  const missing = reach.companies.find((id) => !companies.some((company) => company.id === id));
  if (missing !== undefined) throw new TrustedIssuerError(`there is no company "${missing}"`);
  const operator = companies.find((company) => company.kind === "operator");
  if (operator && subjectMapping === "email")
    throw new TrustedIssuerError(
      `company "${operator.id}" is the operator: operator accounts are never reached by email mapping`,
    );
}

/** The clients exist, are confidential and have a federation grant. */
async function checkClients(lookups: IssuerCheckLookups, { clientIds }: TrustedIssuerRegistration) {
  const clients = await lookups.clientGrants(clientIds);
  const missing = clientIds.find((id) => !clients.some((client) => client.id === id));
  if (missing !== undefined) throw new TrustedIssuerError(`there is no client "${missing}"`);
  const publicClient = clients.find((client) => client.tokenEndpointAuthMethod === "none");
  if (publicClient)
    throw new TrustedIssuerError(
      `client "${publicClient.id}" is public: only confidential clients may use federated grants`,
    );
  const withoutGrant = clients.find((client) => !client.grantTypes.some((grant) => FEDERATION_GRANTS.includes(grant)));
  if (withoutGrant)
    throw new TrustedIssuerError(
      `client "${withoutGrant.id}" has neither federation grant in its grant_types (${FEDERATION_GRANTS.join(", ")})`,
    );
}

/** Registers the issuer, or replaces the registration of an issuer already trusted (its links stay). */
export async function addTrustedIssuer(
  stores: Stores,
  registration: TrustedIssuerRegistration,
  by?: string,
  mode: IssuerSaveMode = "either",
): Promise<"added" | "updated"> {
  const { issuer, clientIds, subjectMapping, reach } = registration;
  const { outcome, oldJwksUri } = await stores.trustedIssuers.save(
    registration,
    async (lookups) => {
      if (mode === "add" && lookups.registered)
        throw new FederationRegistryError("already_exists", `"${issuer}" is a trusted issuer already`);
      if (mode === "replace" && !lookups.registered) throw notTrusted(issuer);
      await checkReachCompanies(lookups, registration);
      await checkClients(lookups, registration);
    },
    (outcome) => ({
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
    }),
  );
  forgetCaches(oldJwksUri);
  return outcome;
}

/** Removes the issuer with its links: its tokens are refused from now on. */
export async function removeTrustedIssuer(stores: Stores, issuer: string, by?: string): Promise<void> {
  const removed = PRINTABLE_ASCII.test(issuer)
    ? await stores.trustedIssuers.remove(issuer, { type: "federation.issuer_removed", userId: by, details: { issuer } })
    : null;
  if (!removed) throw notTrusted(issuer);
  forgetCaches(removed.jwksUri);
}

/** Links the issuer's subject to the local user named by `username` (an email), replacing an earlier link. */
export async function linkSubject(
  stores: Stores,
  issuer: string,
  subject: string,
  username: string,
  by?: string,
): Promise<void> {
  if (subject === "" || subject.length > 255 || /[\u0000-\u001f\u007f]/.test(subject))
    throw new TrustedIssuerError("the subject must be 1 to 255 characters without control characters");
  if (username.length > MAX_USERNAME_LENGTH || /[\u0000-\u001f\u007f]/.test(username))
    throw new TrustedIssuerError(`there is no user "${username.replace(/[\u0000-\u001f\u007f]/g, "?")}"`);
  if (!PRINTABLE_ASCII.test(issuer)) throw new TrustedIssuerError(`"${issuer}" is not a trusted issuer`);
  await stores.trustedIssuers.link(
    { issuer, subject, email: username.toLowerCase() },
    {
      issuer(trusted) {
        if (!trusted) throw new TrustedIssuerError(`"${issuer}" is not a trusted issuer`);
        if (trusted.subjectMapping !== "link")
          throw new TrustedIssuerError(
            `"${issuer}" maps its subjects by verified email; links are for issuers registered with "subject": "link"`,
          );
      },
      user(user, reach) {
        if (!user) throw new TrustedIssuerError(`there is no user "${username}"`);
        if (!reach)
          throw new TrustedIssuerError(
            `"${issuer}" does not name whom it speaks for yet: register it again with companies or email_domains`,
          );
        if (!issuerReaches({ reach, subjectMapping: "link" }, user))
          throw new TrustedIssuerError(
            `user "${username}" is neither in a company nor in an email domain that "${issuer}" speaks for`,
          );
      },
    },
    (linkedUserId) => ({ type: "federation.subject_linked", userId: by, details: { issuer, subject, linkedUserId } }),
  );
  forgetCaches();
}
