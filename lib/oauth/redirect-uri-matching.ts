/**
 * Whether a redirect_uri of a request belongs to the client: an exact string match against a registered URI, or
 * for native clients a loopback IP literal on any port (RFC 8252 §7.3), which needs no registration. The one
 * relaxation: an empty path and "/" are the same URI (RFC 3986 §6.2.3), so `http://localhost:4000` matches a
 * registered `http://localhost:4000/` and the other way round, as relying-party libraries send either.
 */
import type { RegisteredClient } from "@/lib/store/models/client";
import { PRINTABLE_ASCII } from "@/lib/http/printable-ascii";

// A URI as it may stand in a Location header is printable ASCII without spaces (RFC 3986 percent-encodes the rest).

function isLoopbackIpRedirect(uri: string): boolean {
  if (uri.includes("#") || !PRINTABLE_ASCII.test(uri)) return false;
  try {
    const url = new URL(uri);
    return (
      url.protocol === "http:" &&
      (url.hostname === "127.0.0.1" || url.hostname === "[::1]") &&
      !url.username &&
      !url.password
    );
  } catch {
    return false;
  }
}

/** An authority with nothing after it (up to a query or fragment) gets the path "/". */
const EMPTY_PATH = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(?=[?#]|$)/i;

export function sameUri(a: string, b: string): boolean {
  return a === b || a.replace(EMPTY_PATH, "$1/") === b.replace(EMPTY_PATH, "$1/");
}

export function isRegisteredUri(registered: readonly string[], uri: string): boolean {
  return registered.some((candidate) => sameUri(candidate, uri));
}

export function isAllowedRedirectUri(client: Pick<RegisteredClient, "kind" | "redirectUris">, uri: string): boolean {
  if (isRegisteredUri(client.redirectUris, uri)) return true;
  return client.kind === "native" && isLoopbackIpRedirect(uri);
}
