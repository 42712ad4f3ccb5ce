/**
 * What a registrar accepts as a redirect URI, post-logout redirect URI, CORS origin or resource server (RFC 6749
 * §3.1.2, RFC 8252 §7 for native apps, RFC 8707 §2, OAuth 2.0 Security BCP): absolute, no fragment, https except on
 * the local machine, and private-use schemes (reverse domain names, such as com.example.app:/callback) for native
 * clients only.
 */
import { PRINTABLE_ASCII } from "@/lib/http/printable-ascii";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** RFC 8252 §7.1: a private-use scheme is a reverse domain name, so it contains a period. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname);
}

/** Whether OptiGate fetches from the URL: https, or outside production http on a loopback host (development). */
export function isFetchableScheme(url: URL, production: boolean): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && !production && isLoopbackHost(url.hostname));
}

/** Returns why `raw` is not an acceptable redirect URI for the client, or undefined when it is. */
export function redirectUriProblem(raw: string, allowPrivateUseScheme: boolean): string | undefined {
  if (!PRINTABLE_ASCII.test(raw)) return "must be printable ASCII without spaces (percent-encode other characters)";
  if (raw.includes("#")) return "must not contain a fragment (#)";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URI";
  }
  if (url.username || url.password) return "must not contain user credentials";
  if (url.protocol === "https:") return url.hostname ? undefined : "must name a host";
  if (url.protocol === "http:") {
    return isLoopbackHost(url.hostname)
      ? undefined
      : "must use https (http is allowed for localhost and loopback addresses only)";
  }
  if (PRIVATE_USE_SCHEME.test(url.protocol)) {
    return allowPrivateUseScheme ? undefined : "may use a private-use scheme only for native clients";
  }
  return allowPrivateUseScheme
    ? "must use https, http on a loopback address, or a private-use scheme named as a reverse domain (com.example.app:/callback)"
    : "must use https (http is allowed for localhost and loopback addresses only)";
}

/** Returns why `raw` is not a resource server's URI (RFC 8707 §2, which advises against a query), or undefined. */
export function resourceUriProblem(raw: string): string | undefined {
  const problem = redirectUriProblem(raw, false);
  if (problem) return problem;
  return new URL(raw).search ? "must not contain a query (RFC 8707 §2)" : undefined;
}

/** Returns why `raw` is not a CORS origin (scheme, host and non-default port, nothing else), or undefined. */
export function corsOriginProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an origin such as https://app.example.com";
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    return "must use https (http is allowed for localhost and loopback addresses only)";
  }
  if (url.origin !== raw) {
    return `must be an origin only: scheme, host and port when not the default, without path or trailing slash (${url.origin})`;
  }
  return undefined;
}
