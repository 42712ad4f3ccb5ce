/**
 * The address a request came from, for throttling and the audit trail. OptiGate's Node server appends the socket's
 * address to X-Forwarded-For, as a proxy would; each trusted reverse proxy in front of it appends one more entry.
 * Entries further left are whatever the caller claimed and are never believed.
 */
import type { HeaderReader } from "@/lib/http/protocol-message";

/** An IPv4 or IPv6 address as proxies write them; anything else is no address (it is stored and throttled on). */
const IP_ADDRESS = /^[0-9A-Fa-f:.]{2,45}$/;

export function clientAddress(request: { headers: HeaderReader }, trustedProxies: number): string | undefined {
  const entries = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const address = entries.at(-1 - trustedProxies) ?? entries[0];
  return address !== undefined && IP_ADDRESS.test(address) ? address : undefined;
}

/** Appends the socket's address to X-Forwarded-For (for the Node server in front of Next.js). */
export function appendForwardedFor(
  existing: string | string[] | undefined,
  socketAddress: string | undefined,
): string | undefined {
  const previous = [existing ?? []].flat().join(", ");
  if (!socketAddress) return previous || undefined;
  return previous ? `${previous}, ${socketAddress}` : socketAddress;
}

/**
 * The wider network around an address, for limits a spread of addresses must not escape: an IPv4 address's /24, an
 * IPv6 address's /48 (what one site is commonly given).
 */
export function wideNetwork(address: string): string {
  const network = throttledNetwork(address);
  if (!network.endsWith("::/64")) return `${network.split(".").slice(0, 3).join(".")}.0/24`;
  return `${network.split(":").slice(0, 3).join(":")}::/48`;
}

/**
 * The network an address is throttled as: an IPv4 address itself, an IPv6 address by its /64 prefix (one customer's
 * network gets a whole /64, so per-address limits on IPv6 would otherwise count each of 2^64 addresses apart).
 */
export function throttledNetwork(address: string): string {
  if (!address.includes(":") || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address)) return address.replace(/^::ffff:/i, "");
  const [head, tail] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const groups =
    tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
