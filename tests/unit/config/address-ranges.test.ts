/**
 * OUTBOUND_ALLOW and CATALOG_PULL_ALLOW: CIDR ranges parsed strictly (none wider than /8 or /16, no IPv6 range that
 * stands for IPv4 addresses), a bad entry named in the start-up error, and what the ranges hold (never a cloud
 * metadata address).
 */
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/config";
import { NO_ADDRESS_RANGES, parseAddressRanges } from "@/lib/config/address-ranges";
import { thrown } from "../../helpers/thrown";

const KEY = "k".repeat(40);

describe("parseAddressRanges", () => {
  it("reads a comma-separated list of IPv4 and IPv6 ranges, spaces around entries allowed", () => {
    const ranges = parseAddressRanges(" 127.0.0.0/8, 10.1.0.0/16 ,::1/128,fd00:1::/32,192.168.4.7/32,fd00::/16");
    expect(ranges.entries).toEqual([
      "127.0.0.0/8",
      "10.1.0.0/16",
      "::1/128",
      "fd00:1::/32",
      "192.168.4.7/32",
      "fd00::/16",
    ]);
    // Neighbours of the ranges that stand for IPv4 addresses are ranges like any other.
    expect(parseAddressRanges("2003::/16,64:ff9b:1::/48,::fffe:0:0/96").entries).toHaveLength(3);
  });

  it("is empty for an empty or blank value", () => {
    expect(parseAddressRanges("")).toBe(NO_ADDRESS_RANGES);
    expect(parseAddressRanges("  ").entries).toEqual([]);
  });

  it.each([
    ["127.0.0.1", '"127.0.0.1" is not a range in CIDR notation, such as 10.1.0.0/16 or fd00:1::/32'],
    ["localhost/8", '"localhost/8" is not a range'],
    ["10.0.0.0/", '"10.0.0.0/" is not a range'],
    ["10.0.0.0/+8", '"10.0.0.0/+8" is not a range'],
    ["10.0.0.0/08", '"10.0.0.0/08" is not a range'],
    ["010.0.0.0/8", '"010.0.0.0/8" is not a range'],
    ["10.0.0/8", '"10.0.0/8" is not a range'],
    ["fe80::%eth0/64", '"fe80::%eth0/64" is not a range'],
    ["10.0.0.0/8/8", '"10.0.0.0/8/8" is not a range'],
    ["10.0.0.0/33", '"10.0.0.0/33" has a prefix longer than 32 bits'],
    ["::1/129", '"::1/129" has a prefix longer than 128 bits'],
    ["10.1.2.3/16", '"10.1.2.3/16" sets bits beyond its /16 prefix: write the network, 10.1.0.0/16'],
    ["fd00::1/8", '"fd00::1/8" sets bits beyond its /8 prefix: write the network, fd00::/8'],
    ["2001:db8:0:1::/48", '"2001:db8:0:1::/48" sets bits beyond its /48 prefix: write the network, 2001:db8::/48'],
    ["127.0.0.0/8,,10.0.0.0/8", "has an empty entry (two commas in a row, or one at either end)"],
    ["127.0.0.0/8,", "has an empty entry"],
    ["0.0.0.0/0", '"0.0.0.0/0" is wider than /8: list the internal networks you mean'],
    ["10.0.0.0/7", '"10.0.0.0/7" is wider than /8'],
    ["::/0", '"::/0" is wider than /16'],
    ["fc00::/7", '"fc00::/7" is wider than /16'],
    [
      "::ffff:10.0.0.0/104",
      '"::ffff:10.0.0.0/104" overlaps ::ffff:0:0/96 (IPv4-mapped), whose addresses stand for IPv4 ones: use the IPv4 form, 10.0.0.0/8',
    ],
    ["::ffff:0:0/96", "overlaps ::ffff:0:0/96 (IPv4-mapped), whose addresses stand for IPv4 ones: list IPv4 ranges in"],
    ["::/16", "overlaps ::ffff:0:0/96 (IPv4-mapped), whose addresses stand for IPv4 ones: list IPv4 ranges in"],
    [
      "64:ff9b::a9fe:0/112",
      "overlaps 64:ff9b::/96 (NAT64), whose addresses stand for IPv4 ones: use the IPv4 form, 169.254.0.0/16",
    ],
    ["64:ff9b::/64", "overlaps 64:ff9b::/96 (NAT64), whose addresses stand for IPv4 ones: list IPv4 ranges in"],
    [
      "2002::/16",
      "overlaps 2002::/16 (6to4), whose addresses stand for IPv4 ones: list IPv4 ranges in their IPv4 form",
    ],
    [
      "2002:a9fe::/32",
      "overlaps 2002::/16 (6to4), whose addresses stand for IPv4 ones: use the IPv4 form, 169.254.0.0/16",
    ],
    [
      "2002:a9fe:a9fe:1::/64",
      "overlaps 2002::/16 (6to4), whose addresses stand for IPv4 ones: use the IPv4 form, 169.254.169.254/32",
    ],
  ])("refuses %s: %s", (list, message) => {
    expect(() => parseAddressRanges(list)).toThrow(message);
  });
});

describe("AddressRanges.includes", () => {
  const ranges = parseAddressRanges("127.0.0.0/8,10.1.0.0/16,fd00:1::/32");

  it.each([
    ["127.0.0.1", true],
    ["127.255.255.254", true],
    ["10.1.200.3", true],
    ["10.2.0.1", false],
    ["192.168.0.1", false],
    ["::ffff:127.0.0.1", true],
    ["::ffff:10.2.0.1", false],
    ["fd00:1:ffff::1", true],
    ["fd00:2::1", false],
    ["::1", false],
    ["localhost", false],
    ["not an address", false],
  ])("%s: %s", (address, included) => {
    expect(ranges.includes(address)).toBe(included);
  });

  it("holds nothing when empty", () => {
    expect(NO_ADDRESS_RANGES.includes("127.0.0.1")).toBe(false);
  });

  it("never holds a cloud metadata address, whatever the list says", () => {
    const wide = parseAddressRanges("169.254.0.0/16,169.254.169.254/32,fd00::/16,fd00:ec2::254/128");
    expect(wide.includes("169.254.169.254")).toBe(false);
    expect(wide.includes("::ffff:169.254.169.254")).toBe(false);
    expect(wide.includes("::ffff:a9fe:a9fe")).toBe(false);
    expect(wide.includes("fd00:ec2::254")).toBe(false);
    expect(wide.includes("fd00:ec2:0:0:0:0:0:254")).toBe(false);
    // Their neighbours are listed as any address is.
    expect(wide.includes("169.254.169.253")).toBe(true);
    expect(wide.includes("fd00:ec2::253")).toBe(true);
  });
});

describe("OUTBOUND_ALLOW and CATALOG_PULL_ALLOW", () => {
  it("are read into the configuration, each on its own, and empty by default", () => {
    const unset = loadConfig({ SECRET_KEY: KEY });
    expect([unset.outboundAllow.entries, unset.catalogPullAllow.entries]).toEqual([[], []]);
    const outbound = loadConfig({ SECRET_KEY: KEY, OUTBOUND_ALLOW: "127.0.0.0/8,::1/128" });
    expect(outbound.outboundAllow.entries).toEqual(["127.0.0.0/8", "::1/128"]);
    expect(outbound.outboundAllow.includes("127.0.0.1")).toBe(true);
    expect(outbound.catalogPullAllow.includes("127.0.0.1")).toBe(false);
    const pulls = loadConfig({ SECRET_KEY: KEY, CATALOG_PULL_ALLOW: "10.20.0.0/16" });
    expect([pulls.outboundAllow.entries, pulls.catalogPullAllow.entries]).toEqual([[], ["10.20.0.0/16"]]);
  });

  it.each(["OUTBOUND_ALLOW", "CATALOG_PULL_ALLOW"])(
    "%s: a bad entry stops the start-up with one line naming the variable and the entry",
    (variable) => {
      const error = thrown(ConfigError, () => loadConfig({ SECRET_KEY: KEY, [variable]: "127.0.0.0/8,0.0.0.0/0" }));
      expect([error.variable, error.message]).toEqual([
        variable,
        `${variable} "0.0.0.0/0" is wider than /8: list the internal networks you mean`,
      ]);
    },
  );
});
