/**
 * A company as the operator describes it (the file of `companies add` and `companies update`): `kind`,
 * `name`, `country` (ISO 3166-1 alpha-2), an optional `id`, and for suppliers `supplier_id` (the supplierID of their
 * catalog files), `name1`, `name2` and `portal_url` (their entry in the catalog list) and `web_services` (the
 * WebServices element of getCatalogInfos). Unknown fields are refused, with the field probably meant.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { closestName } from "@/lib/errors/did-you-mean";
import { MAX_URI_LENGTH } from "@/lib/config/policy";

export const COMPANY_KINDS = ["eye_care_professional", "supplier", "operator", "software_vendor"] as const;
type CompanyKind = (typeof COMPANY_KINDS)[number];

interface WebServiceEntry {
  type: string;
  name: string;
  url: string;
  priority: number;
}

export interface CompanyRegistration {
  id?: string;
  kind: CompanyKind;
  name: string;
  country: string;
  /** suppliers only */
  supplier?: { supplierId: string; name1: string | null; name2: string | null; portalUrl: string | null };
  webServices: WebServiceEntry[];
}

export class CompanyMetadataError extends OptiGateError<"invalid_company"> {
  readonly code = "invalid_company";
}

const FIELDS = ["id", "kind", "name", "country", "supplier_id", "name1", "name2", "portal_url", "web_services"];
const SUPPLIER_FIELDS = ["supplier_id", "name1", "name2", "portal_url", "web_services"];
const WEB_SERVICE_FIELDS = ["type", "name", "url", "priority"];
/** Company ids and supplier ids: the characters of the catalog format's codes. */
const CODE = /^[A-Za-z0-9._-]{1,64}$/;
const MAX_NAME_LENGTH = 200;
const MAX_WEB_SERVICES = 20;
const MAX_PRIORITY = 99;
const REGION_NAMES = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
/** Codes the region names know that ISO 3166-1 does not assign to a country (unknown region, unions). */
const NOT_COUNTRIES = new Set(["ZZ", "EU", "EZ", "UN", "QO"]);

function fail(message: string): never {
  throw new CompanyMetadataError(message);
}

function refuseUnknown(object: Record<string, unknown>, known: string[], where: string): void {
  const unknown = Object.keys(object).find((key) => !known.includes(key));
  if (unknown === undefined) return;
  const meant = closestName(unknown, known);
  fail(`unknown field "${unknown}"${where} (${meant ? `did you mean "${meant}"? ` : ""}known: ${known.join(", ")})`);
}

function text(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim() === "") fail(`${field} must be a non-empty text`);
  const trimmed = (value as string).trim();
  if (trimmed.length > MAX_NAME_LENGTH) fail(`${field} must be at most ${MAX_NAME_LENGTH} characters`);
  if (/\p{Cc}/u.test(trimmed)) fail(`${field} must not contain control characters`);
  return trimmed;
}

const optionalText = (value: unknown, field: string) => (value === undefined ? null : text(value, field));

function code(value: unknown, field: string): string {
  if (typeof value !== "string" || !CODE.test(value)) fail(`${field} must be 1 to 64 letters, digits, '.', '_' or '-'`);
  return value as string;
}

/** An ISO 3166-1 alpha-2 code that names a country or region. */
function country(value: unknown): string {
  if (
    typeof value !== "string" ||
    !/^[A-Z]{2}$/.test(value) ||
    NOT_COUNTRIES.has(value) ||
    REGION_NAMES.of(value) === undefined
  )
    fail(`country must be an ISO 3166-1 alpha-2 code in capitals, such as DE or AT`);
  return value as string;
}

function webUrl(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length > MAX_URI_LENGTH || !URL.canParse(value))
    fail(`${field} must be an http or https URL`);
  const url = new URL(value as string);
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password)
    fail(`${field} must be an http or https URL without credentials`);
  return value as string;
}

function webServices(value: unknown): WebServiceEntry[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail("web_services must be a list of {type, name, url, priority}");
  const list = value as unknown[];
  if (list.length > MAX_WEB_SERVICES) fail(`web_services may list at most ${MAX_WEB_SERVICES} services`);
  return list.map((entry, index) => {
    const where = `web_services[${index}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry))
      fail(`${where} must be an object {type, name, url, priority}`);
    const service = entry as Record<string, unknown>;
    refuseUnknown(service, WEB_SERVICE_FIELDS, ` in ${where}`);
    const priority = service.priority ?? 1;
    if (!Number.isInteger(priority) || (priority as number) < 1 || (priority as number) > MAX_PRIORITY)
      fail(`${where}.priority must be a whole number from 1 to ${MAX_PRIORITY}`);
    return {
      type: code(service.type, `${where}.type`),
      name: text(service.name, `${where}.name`),
      url: webUrl(service.url, `${where}.url`),
      priority: priority as number,
    };
  });
}

function kind(value: unknown): CompanyKind {
  if (!COMPANY_KINDS.includes(value as CompanyKind)) fail(`kind must be one of ${COMPANY_KINDS.join(", ")}`);
  return value as CompanyKind;
}

export function parseCompany(input: unknown): CompanyRegistration {
  if (typeof input !== "object" || input === null || Array.isArray(input)) fail("a company must be a JSON object");
  const metadata = input as Record<string, unknown>;
  refuseUnknown(metadata, FIELDS, "");
  const companyKind = kind(metadata.kind);
  const registration: CompanyRegistration = {
    ...(metadata.id === undefined ? {} : { id: code(metadata.id, "id") }),
    kind: companyKind,
    name: text(metadata.name, "name"),
    country: country(metadata.country),
    webServices: [],
  };
  if (companyKind !== "supplier") {
    const given = SUPPLIER_FIELDS.find((field) => metadata[field] !== undefined);
    if (given) fail(`${given} is for suppliers only (kind "supplier")`);
    return registration;
  }
  if (metadata.supplier_id === undefined) fail("a supplier needs its supplier_id, the supplierID of its catalog files");
  return {
    ...registration,
    supplier: {
      supplierId: code(metadata.supplier_id, "supplier_id"),
      name1: optionalText(metadata.name1, "name1"),
      name2: optionalText(metadata.name2, "name2"),
      portalUrl: metadata.portal_url === undefined ? null : webUrl(metadata.portal_url, "portal_url"),
    },
    webServices: webServices(metadata.web_services),
  };
}
