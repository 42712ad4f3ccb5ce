/**
 * What an invitation and the invitation page accept: an email address (RFC 5321's 254 characters at most, a local
 * part and a domain with a dot, no spaces or control characters; stored in lower case, as user names are), a role,
 * a language and names (passwords follow lib/crypto/password-policy.ts). Each refusal is a PersonFieldError whose
 * code the pages translate.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { MAX_USERNAME_LENGTH } from "@/lib/config/policy";
import { isLocale, LOCALES, type Locale } from "@/lib/i18n/locales";

export const ROLES = ["user", "admin", "developer"] as const;
export type Role = (typeof ROLES)[number];

export type PersonFieldProblem = "invalid_email" | "invalid_role" | "invalid_language" | "invalid_name";

export class PersonFieldError extends OptiGateError<PersonFieldProblem> {
  constructor(
    readonly code: PersonFieldProblem,
    message: string,
    /** the form field it is about */
    readonly field: string,
  ) {
    super(message);
  }
}

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}$/;
const DOMAIN =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const MAX_NAME_LENGTH = 100;

/** The address in lower case, or a PersonFieldError saying what is wrong with it. */
export function parseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  const refuse = (why: string) => new PersonFieldError("invalid_email", `"${raw.slice(0, 60)}" ${why}`, "email");
  if (email.length > MAX_USERNAME_LENGTH) throw refuse(`is longer than ${MAX_USERNAME_LENGTH} characters`);
  const at = email.lastIndexOf("@");
  if (at < 0) throw refuse("is not an email address (no @)");
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!LOCAL_PART.test(local) || local.startsWith(".") || local.endsWith(".") || local.includes(".."))
    throw refuse("is not an email address (the part before @ is empty or has characters mail does not allow)");
  if (!DOMAIN.test(domain)) throw refuse("is not an email address (the domain after @ is not a host name with a dot)");
  return email;
}

export function parseRole(raw: string): Role {
  if ((ROLES as readonly string[]).includes(raw)) return raw as Role;
  throw new PersonFieldError("invalid_role", `there is no role "${raw}" (roles: ${ROLES.join(", ")})`, "role");
}

/** Developers register their company's applications: only software vendors have them. */
export function checkRoleFits(role: Role, companyKind: string): Role {
  if (role === "developer" && companyKind !== "software_vendor")
    throw new PersonFieldError("invalid_role", "the role developer is for software vendors' staff only", "role");
  return role;
}

export function parseLanguage(raw: string): Locale {
  if (isLocale(raw)) return raw;
  throw new PersonFieldError(
    "invalid_language",
    `there is no language "${raw}" (languages: ${LOCALES.join(", ")})`,
    "language",
  );
}

/** A given or family name: trimmed, 1 to 100 characters, no control characters. */
export function parseName(raw: string, field: "given_name" | "family_name"): string {
  const name = raw.trim().normalize("NFC");
  if (name.length === 0 || name.length > MAX_NAME_LENGTH || /\p{Cc}/u.test(name))
    throw new PersonFieldError("invalid_name", `${field} must be 1 to ${MAX_NAME_LENGTH} characters`, field);
  return name;
}
