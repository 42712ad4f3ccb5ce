/**
 * Where OptiGate's pages may send a browser next (`returnUrl`, `returnTo`): a path on this origin, never a URL that
 * leaves it, so that the login page and the language switch cannot be turned into open redirectors.
 */

const BASE = "http://local.invalid";

/** Browsers read a backslash as a slash and drop tabs and line breaks from URLs: such paths are never local. */
const AMBIGUOUS = /[\\\x00-\x1f\x7f]/;

/**
 * The normalized local path (with its query), or undefined. Normalizing comes first: `/.//evil.com` and
 * `/%2e//evil.com` are `//evil.com` once their dot segments are resolved, which a browser follows to another host.
 */
export function safeLocalPath(value: string | null | undefined): string | undefined {
  if (!value || !value.startsWith("/") || AMBIGUOUS.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE || url.pathname.startsWith("//")) return undefined;
  return `${url.pathname}${url.search}`;
}
