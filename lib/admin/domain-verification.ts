/**
 * The proof that a company holds an email domain (issue 46): a DNS TXT record at `_optigate-challenge.<domain>` whose
 * value is `optigate-domain-verification=<token>`, the token made when the domain was claimed. The record sits under
 * its own underscore label, as draft-ietf-dnsop-domain-verification-techniques recommends, so that it neither joins
 * the domain's own TXT records (SPF and others) nor is taken for another provider's. The lookup is a function passed
 * in: tests give their own, the service uses the system's resolvers with a time limit.
 */
import { randomBytes } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { DNS_VERIFICATION_TIMEOUT_MS } from "@/lib/config/policy";
import { OptiGateError } from "@/lib/errors/optigate-error";

const CHALLENGE_LABEL = "_optigate-challenge";
const VALUE_PREFIX = "optigate-domain-verification=";

export type DomainVerificationProblem = "no_record" | "wrong_value" | "dns_failure";

export class DomainVerificationError extends OptiGateError<DomainVerificationProblem> {
  constructor(
    readonly code: DomainVerificationProblem,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The TXT records at a name, each as its character strings (node:dns's resolveTxt). */
export type TxtLookup = (name: string) => Promise<string[][]>;

/** A token of 192 random bits, as DNS carries it without quoting. */
export const newVerificationToken = (): string => randomBytes(24).toString("base64url");

/** The record that proves the domain, as its holder creates it. */
export const verificationRecord = (domain: string, token: string) => ({
  name: `${CHALLENGE_LABEL}.${domain}`,
  type: "TXT" as const,
  value: `${VALUE_PREFIX}${token}`,
});

/** The system's resolvers (or `servers`, host:port), giving up after `timeoutMs` for all tries together. */
export function dnsTxtLookup(options: { servers?: string[]; timeoutMs?: number } = {}): TxtLookup {
  const timeoutMs = options.timeoutMs ?? DNS_VERIFICATION_TIMEOUT_MS;
  return async (name) => {
    const resolver = new Resolver({ timeout: Math.ceil(timeoutMs / 3), tries: 2 });
    if (options.servers) resolver.setServers(options.servers);
    const timer = setTimeout(() => resolver.cancel(), timeoutMs);
    try {
      return await resolver.resolveTxt(name);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Names that do not exist, or exist without TXT records: nothing was published (yet). */
const NOTHING_THERE = new Set(["ENOTFOUND", "ENODATA"]);

async function lookUp(name: string, lookup: TxtLookup): Promise<string[]> {
  try {
    return (await lookup(name)).map((strings) => strings.join(""));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code && NOTHING_THERE.has(code)) return [];
    const why = code === "ECANCELLED" || code === "ETIMEOUT" ? "no answer in time" : (code ?? "failed");
    throw new DomainVerificationError("dns_failure", `the DNS lookup of ${name} failed (${why}); try again later`, {
      cause: error,
    });
  }
}

/**
 * Resolves when the domain's record holds the token; else throws a DomainVerificationError: no record, a record
 * with another value (the first one found is named), or a DNS failure.
 */
export async function checkVerificationRecord(
  domain: string,
  token: string,
  lookup: TxtLookup = dnsTxtLookup(),
): Promise<void> {
  const { name, value } = verificationRecord(domain, token);
  const found = await lookUp(name, lookup);
  if (found.includes(value)) return;
  if (found.length === 0)
    throw new DomainVerificationError("no_record", `there is no TXT record at ${name}: create one holding "${value}"`);
  // What DNS holds is anyone's text: shortened, and control characters shown as "?".
  const first = found[0].replace(/\p{Cc}/gu, "?");
  const shown = first.length > 100 ? `${first.slice(0, 100)}…` : first;
  throw new DomainVerificationError(
    "wrong_value",
    `the TXT record at ${name} holds "${shown}"${found.length > 1 ? ` and ${found.length - 1} more` : ""}, not "${value}"`,
  );
}
