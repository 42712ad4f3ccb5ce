/**
 * Address ranges in CIDR notation (`127.0.0.0/8,10.1.0.0/16,::1/128`), as OUTBOUND_ALLOW and CATALOG_PULL_ALLOW list
 * them: the private or loopback networks an operator lets OptiGate connect to although they are not public. Parsing is
 * strict, so that a typo never opens a wider range than meant: every entry is a network address with its prefix
 * length, no wider than /8 (IPv4) or /16 (IPv6), and no IPv6 range that stands for IPv4 addresses. The cloud metadata
 * addresses stay out whatever the list says.
 */
import { BlockList, isIP } from "node:net";
import { ConfigError } from "@/lib/config/config-error";

export interface AddressRanges {
  /** The ranges as written, for messages. */
  readonly entries: readonly string[];
  /** Whether the IP address lies in one of the ranges; an IPv4-mapped IPv6 address counts as its IPv4 address. */
  includes(address: string): boolean;
}

/** Cloud metadata services (AWS, GCP, Azure and others; AWS's IPv6 one): never reachable, whatever a list holds. */
const METADATA = new BlockList();
METADATA.addAddress("169.254.169.254", "ipv4");
METADATA.addAddress("fd00:ec2::254", "ipv6");

function rangesOf(entries: string[]): AddressRanges {
  const list = new BlockList();
  for (const entry of entries) {
    const [network, prefix] = entry.split("/");
    list.addSubnet(network, Number(prefix), isIP(network) === 4 ? "ipv4" : "ipv6");
  }
  return {
    entries,
    includes: (address) => {
      const version = isIP(address);
      if (version === 0) return false;
      const family = version === 4 ? "ipv4" : "ipv6";
      // BlockList matches the IPv4-mapped form of a metadata address too.
      return list.check(address, family) && !METADATA.check(address, family);
    },
  };
}

export const NO_ADDRESS_RANGES: AddressRanges = rangesOf([]);

/** The address's bits and width; IPv6 as the URL parser writes it (embedded IPv4 as hex, `::` once at most). */
function addressBits(address: string, family: 4 | 6): { bits: bigint; width: number } {
  if (family === 4)
    return { bits: address.split(".").reduce((bits, octet) => (bits << 8n) | BigInt(octet), 0n), width: 32 };
  const [head, tail] = new URL(`http://[${address}]`).hostname.slice(1, -1).split("::");
  const groupsOf = (part: string | undefined) => (part ? part.split(":") : []);
  const missing = 8 - groupsOf(head).length - groupsOf(tail).length;
  const groups = [...groupsOf(head), ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...groupsOf(tail)];
  return { bits: groups.reduce((bits, group) => (bits << 16n) | BigInt(`0x${group}`), 0n), width: 128 };
}

function formatBits(bits: bigint, family: 4 | 6): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((shift) => (bits >> shift) & 255n).join(".");
  const groups = Array.from({ length: 8 }, (_, index) => ((bits >> BigInt(112 - 16 * index)) & 0xffffn).toString(16));
  return new URL(`http://[${groups.join(":")}]`).hostname.slice(1, -1);
}

/**
 * IPv6 ranges whose addresses stand for IPv4 ones (held in the 32 bits after the prefix): Node's BlockList matches IPv4
 * addresses against IPv4-mapped ranges, and NAT64 and 6to4 addresses reach the IPv4 address they hold. An entry
 * overlapping one would open IPv4 ranges unseen.
 */
const EMBEDDING_RANGES: [network: string, prefix: number, kind: string][] = [
  ["::ffff:0:0", 96, "IPv4-mapped"],
  ["64:ff9b::", 96, "NAT64"],
  ["2002::", 16, "6to4"],
];

/** Why an IPv6 network overlaps a range that stands for IPv4 addresses, with the IPv4 form when there is one. */
function embeddingProblem(entry: string, bits: bigint, prefix: number): string | null {
  for (const [network, embedPrefix, kind] of EMBEDDING_RANGES) {
    const shared = BigInt(128 - Math.min(prefix, embedPrefix));
    if (bits >> shared !== addressBits(network, 6).bits >> shared) continue;
    const ipv4Prefix = Math.min(prefix - embedPrefix, 32);
    const ipv4 = formatBits((bits >> BigInt(96 - embedPrefix)) & 0xffffffffn, 4);
    const form = ipv4Prefix >= 8 ? `use the IPv4 form, ${ipv4}/${ipv4Prefix}` : "list IPv4 ranges in their IPv4 form";
    return `"${entry}" overlaps ${network}/${embedPrefix} (${kind}), whose addresses stand for IPv4 ones: ${form}`;
  }
  return null;
}

/** Why one entry is not a network in CIDR notation no wider than allowed, or null. */
function entryProblem(entry: string): string | null {
  const match = /^([^/]+)\/(0|[1-9]\d{0,2})$/.exec(entry);
  const family = match && !match[1].includes("%") ? isIP(match[1]) : 0;
  if (!match || (family !== 4 && family !== 6))
    return `"${entry}" is not a range in CIDR notation, such as 10.1.0.0/16 or fd00:1::/32`;
  const prefix = Number(match[2]);
  const { bits, width } = addressBits(match[1], family);
  if (prefix > width) return `"${entry}" has a prefix longer than ${width} bits`;
  const network = (bits >> BigInt(width - prefix)) << BigInt(width - prefix);
  if (network !== bits)
    return `"${entry}" sets bits beyond its /${prefix} prefix: write the network, ${formatBits(network, family)}/${prefix}`;
  // A list names the internal networks meant; /0 or the like would open every address, metadata services included.
  const widest = family === 4 ? 8 : 16;
  if (prefix < widest) return `"${entry}" is wider than /${widest}: list the internal networks you mean`;
  return family === 6 ? embeddingProblem(entry, bits, prefix) : null;
}

/** Parses a comma-separated list of CIDR ranges (empty: none); throws an Error naming the first bad entry. */
export function parseAddressRanges(list: string): AddressRanges {
  if (list.trim() === "") return NO_ADDRESS_RANGES;
  const entries = list.split(",").map((entry) => entry.trim());
  for (const entry of entries) {
    if (entry === "") throw new Error("has an empty entry (two commas in a row, or one at either end)");
    const problem = entryProblem(entry);
    if (problem) throw new Error(problem);
  }
  return rangesOf(entries);
}

/**
 * A variable listing ranges the public-address rule lets through (unset: none): OUTBOUND_ALLOW for OptiGate's own
 * connections, CATALOG_PULL_ALLOW for the catalog files suppliers name. A bad entry stops the start-up.
 */
export function readAllowedRanges(
  env: Record<string, string | undefined>,
  name: "OUTBOUND_ALLOW" | "CATALOG_PULL_ALLOW",
): AddressRanges {
  try {
    return parseAddressRanges(env[name] ?? "");
  } catch (error) {
    throw new ConfigError(name, (error as Error).message);
  }
}
