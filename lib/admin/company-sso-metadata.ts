/**
 * A company's OpenID Connect provider as an operator or the company's administrator describes it (the file of
 * `companies sso set`): `issuer` (as its discovery document names it; Entra's multi-tenant form with `{tenantid}`
 * needs `tenant_id`), `client_id`, `client_secret`, `scope` (with openid), `token_endpoint_auth_method`, `claims` (the
 * provider's claim names, and group values that give roles), `hosted_domain` (Google's `hd`), `tenant_id` (Entra's
 * `tid`), `sso_only` and `enabled`. Unknown fields are refused; every text is bounded before anything is stored.
 */
import { MAX_LIST_ENTRIES, MAX_SCOPE_PARAMETER_LENGTH, MAX_URI_LENGTH } from "@/lib/config/policy";
import type { AddressRanges } from "@/lib/config/address-ranges";
import { didYouMean } from "@/lib/errors/did-you-mean";
import { OptiGateError } from "@/lib/errors/optigate-error";
import { DomainNameError, normalizeDomain } from "@/lib/http/domain-name";
import { PRINTABLE_ASCII } from "@/lib/http/printable-ascii";
import { nonPublicHostProblem } from "@/lib/http/public-address";
import { keySetUrlProblem } from "@/lib/jwt/key-set-rules";
import { parseRole, PersonFieldError } from "@/lib/admin/person-fields";
import {
  SSO_AUTH_METHODS,
  STANDARD_CLAIMS,
  TENANT_PLACEHOLDER,
  type CompanySsoWrite,
  type SsoAuthMethod,
  type SsoClaimMapping,
} from "@/lib/store/models/company-sso";

export class CompanySsoMetadataError extends OptiGateError<"invalid_company_sso"> {
  readonly code = "invalid_company_sso";

  constructor(
    message: string,
    /** the field the message is about, as the description names it ("issuer", "claims.email"); "" for the whole */
    readonly field: string,
  ) {
    super(message);
  }
}

/** Where the provider may be: production rules, and OUTBOUND_ALLOW's ranges for an operator's (none for a company's). */
export interface SsoAddressRules {
  production: boolean;
  outboundAllow?: AddressRanges;
}

const FIELDS = [
  "issuer",
  "client_id",
  "client_secret",
  "scope",
  "token_endpoint_auth_method",
  "claims",
  "hosted_domain",
  "tenant_id",
  "sso_only",
  "enabled",
];
const CLAIM_FIELDS = ["email", "given_name", "family_name", "groups", "roles"];
/** Google's client ids are about 75 characters; secrets and group values of any provider fit these. */
const MAX_CLIENT_ID_LENGTH = 255;
const MAX_SECRET_LENGTH = 512;
const MAX_CLAIM_NAME_LENGTH = 200;
const MAX_GROUP_LENGTH = 255;
/** Entra ID's tenant ids are GUIDs. */
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** RFC 6749 §3.3: scope tokens, one space apart. */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/;
const DEFAULT_SCOPE = "openid email profile";

function fail(message: string, field: string): never {
  throw new CompanySsoMetadataError(message, field);
}

function refuseUnknown(object: Record<string, unknown>, known: string[], where: string): void {
  const unknown = Object.keys(object).find((key) => !known.includes(key));
  if (unknown !== undefined)
    fail(`unknown field "${unknown}"${where}${didYouMean(unknown, known)}`, where ? "claims" : "");
}

function asciiText(value: unknown, field: string, maxLength: number): string {
  if (typeof value !== "string" || !PRINTABLE_ASCII.test(value) || value.length > maxLength)
    fail(`${field} must be 1 to ${maxLength} printable ASCII characters without spaces`, field);
  return value as string;
}

/** The issuer with a tenant's place in its path at most, as a discovery document names it. */
function issuerUrl(value: unknown, rules: SsoAddressRules): string {
  const issuer = asciiText(value, "issuer", MAX_URI_LENGTH);
  const placeholders = issuer.split(TENANT_PLACEHOLDER).length - 1;
  const sample = issuer.replace(TENANT_PLACEHOLDER, "00000000-0000-0000-0000-000000000000");
  const refuse = (message: string) => fail(message, "issuer");
  if (placeholders > 1 || /[{}]/.test(sample))
    refuse(`issuer may hold ${TENANT_PLACEHOLDER} once, and no other braces`);
  const problem = keySetUrlProblem(sample, rules.production);
  if (problem) refuse(`issuer "${issuer}" ${problem}`);
  const url = new URL(sample);
  if (url.search) refuse(`issuer "${issuer}" must not contain a query (OpenID Connect Discovery §3)`);
  if (placeholders === 1 && !url.pathname.includes("00000000-0000"))
    refuse(`issuer holds ${TENANT_PLACEHOLDER} in its path only`);
  const internal = rules.production ? nonPublicHostProblem(url.hostname, rules.outboundAllow) : null;
  if (internal) refuse(`issuer "${issuer}" must be on a public address: ${internal}`);
  return issuer;
}

function scope(value: unknown): string {
  if (value === undefined) return DEFAULT_SCOPE;
  if (typeof value !== "string" || value.length > MAX_SCOPE_PARAMETER_LENGTH || !SCOPE.test(value))
    fail(`scope must be scope names one space apart, at most ${MAX_SCOPE_PARAMETER_LENGTH} characters`, "scope");
  const names = (value as string).split(" ");
  if (!names.includes("openid")) fail('scope must include "openid"', "scope");
  if (new Set(names).size !== names.length) fail("scope names a scope twice", "scope");
  return value as string;
}

function roles(value: unknown): Record<string, string> {
  const refuse = (message: string) => fail(message, "claims.roles");
  if (typeof value !== "object" || value === null || Array.isArray(value))
    refuse('claims.roles must map group values to roles, such as {"optigate-admins": "admin"}');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_LIST_ENTRIES) refuse(`claims.roles may map at most ${MAX_LIST_ENTRIES} groups`);
  for (const [group, role] of entries) {
    if (group === "" || group.length > MAX_GROUP_LENGTH || /\p{Cc}/u.test(group))
      refuse(`claims.roles: a group value must be 1 to ${MAX_GROUP_LENGTH} characters without control characters`);
    try {
      parseRole(String(role));
    } catch (error) {
      if (error instanceof PersonFieldError) refuse(`claims.roles["${group}"]: ${error.message}`);
      throw error;
    }
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

function claims(value: unknown): SsoClaimMapping {
  if (value === undefined) return STANDARD_CLAIMS;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    fail(
      "claims must be an object naming the provider's claims: email, given_name, family_name, groups, roles",
      "claims",
    );
  const given = value as Record<string, unknown>;
  refuseUnknown(given, CLAIM_FIELDS, " in claims");
  const name = (field: "email" | "given_name" | "family_name" | "groups") =>
    given[field] === undefined ? {} : { [field]: asciiText(given[field], `claims.${field}`, MAX_CLAIM_NAME_LENGTH) };
  const mapping: SsoClaimMapping = {
    ...STANDARD_CLAIMS,
    ...name("email"),
    ...name("given_name"),
    ...name("family_name"),
    ...name("groups"),
    roles: given.roles === undefined ? {} : roles(given.roles),
  };
  if (Object.keys(mapping.roles).length > 0 && mapping.groups === undefined)
    fail("claims.roles needs claims.groups: the claim that lists a person's groups", "claims.roles");
  return mapping;
}

function hostedDomain(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== "string") fail("hosted_domain must be a domain, such as example.com", "hosted_domain");
  try {
    return normalizeDomain(value as string);
  } catch (error) {
    if (error instanceof DomainNameError) fail(`hosted_domain: ${error.message}`, "hosted_domain");
    throw error;
  }
}

function tenantId(value: unknown, issuer: string): string | null {
  const needed = issuer.includes(TENANT_PLACEHOLDER);
  if (value === undefined) {
    if (needed)
      fail(
        `tenant_id is needed with ${TENANT_PLACEHOLDER} in the issuer: the company speaks for its tenant only`,
        "tenant_id",
      );
    return null;
  }
  const id = typeof value === "string" ? value.toLowerCase() : "";
  if (!TENANT_ID.test(id)) fail("tenant_id must be the Entra ID tenant's id, a GUID", "tenant_id");
  return id;
}

function flag(value: unknown, field: string): boolean | undefined {
  if (value !== undefined && typeof value !== "boolean") fail(`${field} must be true or false`, field);
  return value as boolean | undefined;
}

function authMethod(value: unknown): SsoAuthMethod {
  if (value === undefined) return "client_secret_basic";
  if (!SSO_AUTH_METHODS.includes(value as SsoAuthMethod))
    fail(`token_endpoint_auth_method must be one of ${SSO_AUTH_METHODS.join(", ")}`, "token_endpoint_auth_method");
  return value as SsoAuthMethod;
}

/** The provider described; `client_secret`, `enabled` and `sso_only` stay undefined when not given. */
export function parseCompanySso(input: unknown, rules: SsoAddressRules): CompanySsoWrite {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    fail("a company's provider must be a JSON object", "");
  const metadata = input as Record<string, unknown>;
  refuseUnknown(metadata, FIELDS, "");
  const issuer = issuerUrl(metadata.issuer, rules);
  const secret = metadata.client_secret;
  const method = authMethod(metadata.token_endpoint_auth_method);
  if (method === "private_key_jwt" && secret !== undefined)
    fail("client_secret is not used with private_key_jwt: OptiGate signs with its own key (its JWKS)", "client_secret");
  return {
    issuer,
    clientId: asciiText(metadata.client_id, "client_id", MAX_CLIENT_ID_LENGTH),
    ...(secret === undefined ? {} : { clientSecret: asciiText(secret, "client_secret", MAX_SECRET_LENGTH) }),
    authMethod: method,
    scope: scope(metadata.scope),
    claims: claims(metadata.claims),
    hostedDomain: hostedDomain(metadata.hosted_domain),
    tenantId: tenantId(metadata.tenant_id, issuer),
    enabled: flag(metadata.enabled, "enabled"),
    ssoOnly: flag(metadata.sso_only, "sso_only"),
  };
}
