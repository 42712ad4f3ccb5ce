/**
 * A company's own OpenID Connect provider (issue 46), the email domains it claims, and the upstream accounts linked
 * to local users, as the company-SSO store takes and returns them. The client secret is held sealed: only
 * `openClientSecret` (lib/store/company-sso-store.ts), given SECRET_KEY, opens it.
 */

/**
 * How OptiGate authenticates at the upstream's token endpoint (OIDC Core §9); private_key_jwt signs with OptiGate's
 * own RS256 key, which the provider reads from OptiGate's JWKS.
 */
export const SSO_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt"] as const;
export type SsoAuthMethod = (typeof SSO_AUTH_METHODS)[number];

/** Entra ID's multi-tenant issuers hold this literal where the tenant id goes (`…/{tenantid}/v2.0`). */
export const TENANT_PLACEHOLDER = "{tenantid}";

/**
 * The upstream's claim names, under the standard claim each stands for (as the CLI's file and the stored JSON name
 * them), and the group values that give a role.
 */
export interface SsoClaimMapping {
  email: string;
  given_name: string;
  family_name: string;
  /** the claim listing the person's groups; absent: roles are not mapped */
  groups?: string;
  /** group value → OptiGate role ("user", "admin", "developer") */
  roles: Record<string, string>;
}

export const STANDARD_CLAIMS: SsoClaimMapping = {
  email: "email",
  given_name: "given_name",
  family_name: "family_name",
  roles: {},
};

/** What a company's SSO is set to, as an operator or the company's administrator writes it. */
interface CompanySsoSettings {
  issuer: string;
  clientId: string;
  authMethod: SsoAuthMethod;
  scope: string;
  claims: SsoClaimMapping;
  /** Google Workspace: the `hd` claim required */
  hostedDomain: string | null;
  /** Entra ID: the `tid` claim required; set whenever the issuer holds TENANT_PLACEHOLDER */
  tenantId: string | null;
}

/**
 * A write: the settings, the secret (undefined keeps the stored one where the settings allow, sealedSecretOf in
 * lib/store/company-sso-store.ts), and the switches (undefined keeps them).
 */
export interface CompanySsoWrite extends CompanySsoSettings {
  clientSecret?: string;
  enabled?: boolean;
  ssoOnly?: boolean;
}

export interface CompanySso extends CompanySsoSettings {
  companyId: string;
  /** sealed with SECRET_KEY for "company-sso-secret"; null when none was given */
  sealedClientSecret: string | null;
  enabled: boolean;
  ssoOnly: boolean;
  /** an operator wrote it last: its provider may be in OUTBOUND_ALLOW's ranges */
  registeredByOperator: boolean;
  /** the last test sign-in that succeeded with exactly this configuration */
  testedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type DomainVerifier = "dns" | "operator";

export interface CompanyDomain {
  /** lower-case ASCII, IDNs as punycode */
  domain: string;
  companyId: string;
  /** the value of the DNS TXT record that proves the domain (lib/admin/domain-verification.ts) */
  verificationToken: string;
  verifiedAt: Date | null;
  verifiedBy: DomainVerifier | null;
  createdAt: Date;
}

/** An upstream account: the concrete issuer (tenant resolved) and its subject, for the company that vouched for it. */
export interface SsoIdentity {
  issuer: string;
  subject: string;
  companyId: string;
}
