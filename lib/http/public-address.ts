/**
 * Whether an IP address or a URL's host is on the public internet, after the IANA special-purpose address registries
 * (RFC 6890 and its updates). In production OptiGate fetches partners' key sets from public addresses only, so that a
 * registered URL cannot reach the loopback, the private network or a cloud metadata service (SSRF), except the ranges
 * the operator lets through (OUTBOUND_ALLOW: internal identity providers and key sets; CATALOG_PULL_ALLOW: an internal
 * file server for catalog pulls; tests).
 */
import { BlockList, isIP } from "node:net";
import { NO_ADDRESS_RANGES, type AddressRanges } from "@/lib/config/address-ranges";

type Ranges = [network: string, prefix: number, kind: string][];

/** Each range that is not public, with what it is in the words of a refusal ("… is link-local"). */
const IPV4_RANGES: Ranges = [
  ["0.0.0.0", 8, '"this network" (0.0.0.0/8)'],
  ["10.0.0.0", 8, "private (RFC 1918)"],
  ["100.64.0.0", 10, "shared address space (carrier-grade NAT, 100.64.0.0/10)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private (RFC 1918)"],
  ["192.0.0.0", 24, "reserved for IETF protocol assignments"],
  ["192.0.2.0", 24, "reserved for documentation"],
  ["192.88.99.0", 24, "a 6to4 relay anycast address"],
  ["192.168.0.0", 16, "private (RFC 1918)"],
  ["198.18.0.0", 15, "reserved for benchmarking"],
  ["198.51.100.0", 24, "reserved for documentation"],
  ["203.0.113.0", 24, "reserved for documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved (240.0.0.0/4, with the broadcast address)"],
];
const IPV6_RANGES: Ranges = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["64:ff9b:1::", 48, "local-use NAT64"],
  ["100::", 64, "discard-only"],
  ["2001::", 23, "reserved for IETF protocol assignments"],
  ["2001:db8::", 32, "reserved for documentation"],
  ["2002::", 16, "6to4 (it may stand for any IPv4 address)"],
  ["3fff::", 20, "reserved for documentation"],
  ["fc00::", 7, "unique-local (fc00::/7)"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local (deprecated)"],
  ["ff00::", 8, "multicast"],
];
/** IPv6 ranges that carry an IPv4 address in their last 32 bits and reach that address: judged as it. */
const EMBEDDING_IPV4: Ranges = [
  ["::ffff:0:0", 96, "IPv4-mapped"],
  ["64:ff9b::", 96, "NAT64 for"],
];
/** One block list per range, so that a match tells which range it was. */
function rangeLists(ranges: Ranges): [BlockList, string][] {
  return ranges.map(([network, prefix, kind]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, network.includes(":") ? "ipv6" : "ipv4");
    return [list, kind];
  });
}

const IPV4_LISTS = rangeLists(IPV4_RANGES);
const IPV6_LISTS = rangeLists(IPV6_RANGES);
const EMBEDDING_LISTS = rangeLists(EMBEDDING_IPV4);
/** Only 2000::/3 is allocated for global unicast; the rest of the IPv6 space is reserved. */
const GLOBAL_UNICAST = rangeLists([["2000::", 3, "global unicast"]]);

const kindIn = (lists: [BlockList, string][], address: string, family: "ipv4" | "ipv6") =>
  lists.find(([list]) => list.check(address, family))?.[1];

/** The IPv4 address in the last 32 bits of an IPv6 address (the URL serializer writes those bits as two hex groups). */
function embeddedIpv4(ipv6: string): string {
  const [high, low] = new URL(`http://[${ipv6}]`).hostname
    .slice(1, -1)
    .split(":")
    .slice(-2)
    .map((group) => parseInt(group || "0", 16));
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/**
 * What a non-public IP address is ("loopback", "private (RFC 1918)", …), or null for a public one. A zone
 * (fe80::1%eth0) is ignored. Throws a TypeError when `address` is no IP address.
 */
export function nonPublicAddressKind(address: string): string | null {
  const bare = address.replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 4) return kindIn(IPV4_LISTS, bare, "ipv4") ?? null;
  if (family !== 6) throw new TypeError(`not an IP address: ${address}`);
  const embedding = kindIn(EMBEDDING_LISTS, bare, "ipv6");
  if (embedding) {
    const ipv4 = embeddedIpv4(bare);
    const kind = nonPublicAddressKind(ipv4);
    return kind && `${embedding} ${ipv4}, which is ${kind}`;
  }
  const kind = kindIn(IPV6_LISTS, bare, "ipv6");
  if (kind || kindIn(GLOBAL_UNICAST, bare, "ipv6")) return kind ?? null;
  return "reserved (outside the global unicast range 2000::/3)";
}

/** What a non-public address is, as nonPublicAddressKind says, or null when it is public or in `allowed`. */
export function refusedAddressKind(address: string, allowed: AddressRanges = NO_ADDRESS_RANGES): string | null {
  return allowed.includes(address) ? null : nonPublicAddressKind(address);
}

/** RFC 6761 §6.3: localhost and every name under it are the local machine, whatever a resolver says. */
const LOOPBACK_NAME = /^(?:.+\.)?localhost\.?$/i;

/**
 * Why a URL's host (as `URL.hostname` gives it: IPv6 in brackets) is an IP address that is neither public nor in
 * `allowed`, or null.
 */
export function nonPublicLiteralProblem(hostname: string, allowed: AddressRanges = NO_ADDRESS_RANGES): string | null {
  const address = hostname.replace(/^\[(.*)\]$/, "$1");
  const kind = isIP(address) ? refusedAddressKind(address, allowed) : null;
  return kind && `${address} is ${kind}`;
}

/**
 * Why a URL's host is known not to be public from its text alone, such as "169.254.169.254 is link-local" or
 * "localhost is a loopback name", or null. Other names are judged by what they resolve to, when connecting; so is a
 * loopback name once `allowed` holds a loopback address.
 */
export function nonPublicHostProblem(hostname: string, allowed: AddressRanges = NO_ADDRESS_RANGES): string | null {
  if (!LOOPBACK_NAME.test(hostname)) return nonPublicLiteralProblem(hostname, allowed);
  return allowed.includes("127.0.0.1") || allowed.includes("::1") ? null : `${hostname} is a loopback name`;
}
