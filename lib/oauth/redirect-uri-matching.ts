/**
 * Whether a redirect_uri of a request belongs to the client: an exact string match against a registered URI, or
 * for native clients a loopback IP literal on any port (RFC 8252 §7.3), which needs no registration.
 */
import type { RegisteredClient } from "@/lib/db/client-record";
import { PRINTABLE_ASCII } from "@/lib/http/text-limits";

// A URI as it may stand in a Location header is printable ASCII without spaces (RFC 3986 percent-encodes the rest).

function isLoopbackIpRedirect(uri: string): boolean {
  if (uri.includes("#") || !PRINTABLE_ASCII.test(uri)) return false;
  try {
    const url = new URL(uri);
    return url.protocol === "http:" && (url.hostname === "127.0.0.1" || url.hostname === "[::1]") && !url.username && !url.password;
  } catch {
    return false;
  }
}

export function isAllowedRedirectUri(client: Pick<RegisteredClient, "kind" | "redirectUris">, uri: string): boolean {
  if (client.redirectUris.includes(uri)) return true;
  return client.kind === "native" && isLoopbackIpRedirect(uri);
}
