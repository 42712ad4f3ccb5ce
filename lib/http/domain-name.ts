/**
 * Email domains as OptiGate stores and compares them: lower-case ASCII, internationalized names in their punycode
 * (xn--) form, letters, digits and hyphens between dots, at least two labels, no trailing dot, no IP address. Kept on
 * the floor so that the CLI, the pages, the login form and the upstream sign-in all judge a domain the same way.
 */
import { isIP } from "node:net";
import { domainToASCII } from "node:url";
import { OptiGateError } from "@/lib/errors/optigate-error";

export class DomainNameError extends OptiGateError<"invalid_domain"> {
  readonly code = "invalid_domain";
}

/** RFC 1035 §2.3.4: a name of at most 253 characters as written without its root dot. */
const MAX_DOMAIN_LENGTH = 253;
/** An LDH label (RFC 5890 §2.3.1): 1 to 63 letters, digits and hyphens, no hyphen first or last. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** What a URL parser would take as the end of the host or as an escape, and spaces: never part of a domain given. */
const NOT_IN_A_DOMAIN = /[\s/\\?#@:%[\]*]|\p{Cc}/u;

/** The domain in its stored form, or a DomainNameError that says what is wrong with it. */
export function normalizeDomain(raw: string): string {
  const given = raw.trim();
  const refuse = (why: string) => new DomainNameError(`"${given.slice(0, 80)}" ${why}`);
  if (given === "") throw refuse("is empty: name a domain such as example.com");
  if (given.length > MAX_DOMAIN_LENGTH) throw refuse(`is longer than ${MAX_DOMAIN_LENGTH} characters`);
  if (given.endsWith(".")) throw refuse("must not end with a dot");
  if (NOT_IN_A_DOMAIN.test(given)) throw refuse("is not a domain name (no spaces, /, @, :, %, *, brackets)");
  const ascii = domainToASCII(given);
  if (ascii === "" || isIP(ascii)) throw refuse("is not a domain name (an IP address is none)");
  if (ascii.length > MAX_DOMAIN_LENGTH) throw refuse(`is longer than ${MAX_DOMAIN_LENGTH} characters as punycode`);
  const labels = ascii.split(".");
  if (labels.length < 2) throw refuse("is a single label: give the whole domain, such as example.com");
  if (!labels.every((label) => LABEL.test(label)))
    throw refuse("may hold only letters, digits and hyphens between its dots, no hyphen first or last");
  if (/^\d+$/.test(labels.at(-1)!)) throw refuse("ends in a number: top-level domains are names");
  return ascii;
}

/** The stored form of an email address's domain (after its last @), or null when it has none a domain could be. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf("@");
  if (at < 1) return null;
  try {
    return normalizeDomain(email.slice(at + 1));
  } catch (error) {
    if (error instanceof DomainNameError) return null;
    throw error;
  }
}
