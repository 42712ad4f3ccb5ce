/**
 * A trusted issuer as the operator describes it (the file of `federation add`): `issuer`, its keys as
 * `jwks_uri` or inline `jwks`, `clients` (the ids allowed to use its tokens), `subject` ("email": a verified
 * email names the local user; "link": only subjects the operator linked), and whom it speaks for: `companies`
 * (company ids) and/or `email_domains`, at least one of them. Unknown fields are refused.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { closestName } from "@/lib/errors/did-you-mean";
import { MAX_CLIENT_ID_LENGTH, MAX_LIST_ENTRIES, MAX_URI_LENGTH } from "@/lib/config/policy";
import { keySetUrlProblem, readKeySource } from "@/lib/jwt/key-set-rules";
import type { IssuerReach, SubjectMapping, TrustedIssuerRegistration } from "@/lib/store/models/trusted-issuer";
import { PRINTABLE_ASCII } from "@/lib/http/printable-ascii";
import type { AddressRanges } from "@/lib/config/address-ranges";

export class TrustedIssuerError extends OptiGateError<"invalid_trusted_issuer"> {
  readonly code = "invalid_trusted_issuer";
}

const FIELDS = new Set(["issuer", "jwks", "jwks_uri", "clients", "subject", "companies", "email_domains"]);
const COMPANY_ID = /^[A-Za-z0-9._-]{1,64}$/;
// Lower-case DNS names of two labels or more (IDNs in their xn-- form); no wildcards: each domain is named.
const EMAIL_DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function fail(message: string): never {
  throw new TrustedIssuerError(message);
}

function issuerUrl(value: unknown, production: boolean): string {
  if (typeof value !== "string" || value === "" || value.length > MAX_URI_LENGTH)
    fail("issuer must be the issuer's URL");
  const problem = keySetUrlProblem(value as string, production);
  if (problem) fail(`issuer "${value}" ${problem}`);
  if (new URL(value as string).search) fail(`issuer "${value}" must not contain a query (RFC 8414 §2)`);
  return value as string;
}

function keys(
  metadata: Record<string, unknown>,
  production: boolean,
  outboundAllow?: AddressRanges,
): Pick<TrustedIssuerRegistration, "jwks" | "jwksUri"> {
  try {
    return readKeySource(
      metadata.jwks,
      metadata.jwks_uri,
      "give the issuer's keys as either jwks_uri or jwks",
      production,
      outboundAllow,
    );
  } catch (error) {
    return fail((error as Error).message);
  }
}

function clientIds(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0)
    fail("clients must list the ids of the clients allowed to use the issuer's tokens");
  const list = value as unknown[];
  if (list.length > MAX_LIST_ENTRIES) fail(`clients may list at most ${MAX_LIST_ENTRIES} ids`);
  for (const id of list)
    if (typeof id !== "string" || !PRINTABLE_ASCII.test(id) || id.length > MAX_CLIENT_ID_LENGTH)
      fail("clients must be client ids (strings)");
  const duplicate = list.find((id, index) => list.indexOf(id) !== index);
  if (duplicate !== undefined) fail(`clients lists "${duplicate}" twice`);
  return list as string[];
}

function uniqueList(value: unknown, field: string, what: string, valid: (entry: string) => boolean): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(`${field} must be a list of ${what}`);
  const list = value as unknown[];
  if (list.length > MAX_LIST_ENTRIES) fail(`${field} may list at most ${MAX_LIST_ENTRIES} entries`);
  for (const entry of list)
    if (typeof entry !== "string" || !valid(entry))
      fail(`${field} must be a list of ${what}; "${String(entry).slice(0, 80)}" is not one`);
  const duplicate = list.find((entry, index) => list.indexOf(entry) !== index);
  if (duplicate !== undefined) fail(`${field} lists "${duplicate}" twice`);
  return list as string[];
}

function reach(metadata: Record<string, unknown>): IssuerReach {
  const companies = uniqueList(metadata.companies, "companies", "company ids", (id) => COMPANY_ID.test(id));
  const emailDomains = uniqueList(
    metadata.email_domains,
    "email_domains",
    "lower-case domain names such as lens-maker.example",
    (domain) => EMAIL_DOMAIN.test(domain),
  );
  if (companies.length === 0 && emailDomains.length === 0)
    fail(
      "name whom the issuer speaks for: companies (company ids) and/or email_domains; it may assert only those users",
    );
  return { companies, emailDomains };
}

/**
 * `production`: the issuer and its key set URL must use https, and the key set URL must name no non-public host
 * outside `outboundAllow`.
 */
export function parseTrustedIssuer(
  input: unknown,
  options: { production?: boolean; outboundAllow?: AddressRanges } = {},
): TrustedIssuerRegistration {
  const production = options.production ?? false;
  if (typeof input !== "object" || input === null || Array.isArray(input))
    fail("a trusted issuer must be a JSON object");
  const metadata = input as Record<string, unknown>;
  const unknown = Object.keys(metadata).find((key) => !FIELDS.has(key));
  if (unknown !== undefined) {
    const meant = closestName(unknown, [...FIELDS]);
    fail(`unknown field "${unknown}" (${meant ? `did you mean "${meant}"? ` : ""}known: ${[...FIELDS].join(", ")})`);
  }
  if (metadata.subject !== "email" && metadata.subject !== "link") fail(`subject must be "email" or "link"`);
  return {
    issuer: issuerUrl(metadata.issuer, production),
    ...keys(metadata, production, options.outboundAllow),
    clientIds: clientIds(metadata.clients),
    subjectMapping: metadata.subject as SubjectMapping,
    reach: reach(metadata),
  };
}
