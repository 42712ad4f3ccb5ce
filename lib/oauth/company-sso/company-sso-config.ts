/**
 * A company's upstream OpenID Connect provider as the store hands it to the sign-in: where it is, how OptiGate
 * authenticates to it, which claims say what, and who registered it (which decides what it may reach). The check here
 * is the one registration and sign-in share, so that a provider that cannot be used is refused before any request.
 */
import { MAX_URI_LENGTH } from "@/lib/config/policy";
import { CompanySignInFailed } from "@/lib/oauth/company-sso/company-sign-in-failed";
import { PRINTABLE_ASCII } from "@/lib/http/printable-ascii";
import { isFetchableScheme } from "@/lib/http/url-policy";
import { discoveryUrl, isIssuerTemplate, TENANT_PLACEHOLDER } from "@/lib/oauth/company-sso/tenant-issuer";
import { SSO_AUTH_METHODS, type SsoAuthMethod } from "@/lib/store/models/company-sso";

/** OptiGate's own signing key, for private_key_jwt: the provider knows it from OptiGate's JWKS. */
interface ClientKey {
  kid: string;
  key: CryptoKey;
}

export interface CompanySsoConfig {
  companyId: string;
  /** The issuer identifier, exactly as the provider's discovery names it; Entra multi-tenant: with `{tenantid}`. */
  issuer: string;
  clientId: string;
  /** Absent: OptiGate is a public client at the provider (PKCE only). */
  clientSecret?: string;
  authMethod: SsoAuthMethod;
  /** Given when authMethod is private_key_jwt. */
  clientKey?: ClientKey;
  /** Space-separated; holds `openid`. */
  scope: string;
  /** Which upstream claim holds each value (default: the standard claim of that name); `roles` maps groups to roles. */
  claims: {
    email?: string;
    given_name?: string;
    family_name?: string;
    groups?: string;
    roles?: Record<string, string>;
  };
  /** Google Workspace: the ID token's `hd` must be this domain. */
  hostedDomain?: string;
  /** Entra ID: the ID token's `tid` must be this tenant; required when the issuer holds `{tenantid}`. */
  tenantId?: string;
  /** An operator registered it: OUTBOUND_ALLOW's ranges apply. A company's administrator: public addresses only. */
  registeredByOperator: boolean;
}

/** Entra's tenant ids are GUIDs; verified domain names are accepted as well. */
const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function issuerProblem(issuer: string, production: boolean): string | null {
  if (!PRINTABLE_ASCII.test(issuer) || issuer.length > MAX_URI_LENGTH)
    return `the issuer must be printable ASCII of at most ${MAX_URI_LENGTH} characters`;
  if (issuer.split(TENANT_PLACEHOLDER).length > 2) return `the issuer may hold ${TENANT_PLACEHOLDER} once`;
  let url: URL;
  try {
    url = new URL(discoveryUrl(issuer));
  } catch {
    return "the issuer is not an absolute URL";
  }
  if (url.username || url.password || issuer.includes("?") || issuer.includes("#"))
    return "the issuer must not contain credentials, a query or a fragment";
  if (isIssuerTemplate(issuer) && !issuer.includes(`/${TENANT_PLACEHOLDER}/`))
    return `${TENANT_PLACEHOLDER} must be a whole path segment of the issuer`;
  if (isFetchableScheme(url, production)) return null;
  return production ? "the issuer must use https" : "the issuer must use https (http only on a loopback host)";
}

/** Why the provider cannot be used as configured, in a sentence, or null. */
export function companySsoConfigProblem(config: CompanySsoConfig, production: boolean): string | null {
  const problem = issuerProblem(config.issuer, production);
  if (problem) return problem;
  if (isIssuerTemplate(config.issuer) && config.tenantId === undefined)
    return `an issuer with ${TENANT_PLACEHOLDER} needs the company's tenant id`;
  if (config.tenantId !== undefined && !TENANT_ID.test(config.tenantId))
    return "the tenant id must be a GUID or a domain name";
  if (!PRINTABLE_ASCII.test(config.clientId)) return "the client id must be printable ASCII";
  if (!SSO_AUTH_METHODS.includes(config.authMethod))
    return `the client authentication must be one of ${SSO_AUTH_METHODS.join(", ")}`;
  if (config.authMethod === "private_key_jwt" && config.clientKey === undefined)
    return "private_key_jwt needs OptiGate's signing key";
  if (!config.scope.split(" ").includes("openid")) return "the scope must include openid";
  if (config.hostedDomain !== undefined && !DOMAIN.test(config.hostedDomain))
    return "the hosted domain must be a domain name in lower case";
  return null;
}

/** Refuses a configuration that cannot be used, before any request is made. */
export function assertUsable(config: CompanySsoConfig, production: boolean): void {
  const problem = companySsoConfigProblem(config, production);
  if (problem) throw new CompanySignInFailed("misconfigured", problem);
}
