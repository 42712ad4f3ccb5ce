import { describe, expect, it } from "vitest";
import {
  nonPublicAddressKind,
  nonPublicHostProblem,
  nonPublicLiteralProblem,
  refusedAddressKind,
} from "@/lib/http/public-address";
import { parseAddressRanges } from "@/lib/config/address-ranges";

describe("nonPublicAddressKind", () => {
  it.each([
    ["0.0.0.0", '"this network" (0.0.0.0/8)'],
    ["0.255.1.2", '"this network" (0.0.0.0/8)'],
    ["10.0.0.1", "private (RFC 1918)"],
    ["10.255.255.255", "private (RFC 1918)"],
    ["100.64.0.1", "shared address space (carrier-grade NAT, 100.64.0.0/10)"],
    ["100.127.255.254", "shared address space (carrier-grade NAT, 100.64.0.0/10)"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["169.254.169.254", "link-local"],
    ["172.16.0.1", "private (RFC 1918)"],
    ["172.31.255.255", "private (RFC 1918)"],
    ["192.0.0.8", "reserved for IETF protocol assignments"],
    ["192.0.2.1", "reserved for documentation"],
    ["192.88.99.1", "a 6to4 relay anycast address"],
    ["192.168.1.1", "private (RFC 1918)"],
    ["198.18.0.1", "reserved for benchmarking"],
    ["198.51.100.7", "reserved for documentation"],
    ["203.0.113.9", "reserved for documentation"],
    ["224.0.0.251", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved (240.0.0.0/4, with the broadcast address)"],
    ["255.255.255.255", "reserved (240.0.0.0/4, with the broadcast address)"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::ffff:127.0.0.1", "IPv4-mapped 127.0.0.1, which is loopback"],
    ["::ffff:7f00:1", "IPv4-mapped 127.0.0.1, which is loopback"],
    ["::FFFF:A9FE:A9FE", "IPv4-mapped 169.254.169.254, which is link-local"],
    ["::ffff:10.1.2.3", "IPv4-mapped 10.1.2.3, which is private (RFC 1918)"],
    ["64:ff9b::192.168.0.1", "NAT64 for 192.168.0.1, which is private (RFC 1918)"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["::127.0.0.1", "reserved (outside the global unicast range 2000::/3)"],
    ["100::1", "discard-only"],
    ["2001::1", "reserved for IETF protocol assignments"],
    ["2001:db8::1", "reserved for documentation"],
    ["2002:7f00:1::1", "6to4 (it may stand for any IPv4 address)"],
    ["3fff::1", "reserved for documentation"],
    ["fc00::1", "unique-local (fc00::/7)"],
    ["fd12:3456:789a::1", "unique-local (fc00::/7)"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fec0::1", "site-local (deprecated)"],
    ["ff02::1", "multicast"],
    ["4000::1", "reserved (outside the global unicast range 2000::/3)"],
  ])("%s is %s", (address, kind) => {
    expect(nonPublicAddressKind(address)).toBe(kind);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "9.255.255.255",
    "11.0.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "126.255.255.255",
    "128.0.0.1",
    "169.253.255.255",
    "172.15.255.255",
    "172.32.0.1",
    "192.167.255.255",
    "198.20.0.1",
    "223.255.255.255",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2606:4700:4700::1111",
    "2a00:1450:4001::200e",
    "2001:200::1",
  ])("%s is public", (address) => {
    expect(nonPublicAddressKind(address)).toBeNull();
  });

  it("throws on what is no IP address", () => {
    expect(() => nonPublicAddressKind("localhost")).toThrow(TypeError);
    expect(() => nonPublicAddressKind("1.2.3")).toThrow(TypeError);
  });
});

describe("nonPublicHostProblem", () => {
  it.each([
    // URL.hostname as the URL parser leaves it: IPv6 in brackets, other IPv4 spellings made dotted decimal.
    [new URL("https://169.254.169.254/latest/meta-data").hostname, "169.254.169.254 is link-local"],
    [new URL("https://2130706433/").hostname, "127.0.0.1 is loopback"],
    [new URL("https://0x7f.1/").hostname, "127.0.0.1 is loopback"],
    [new URL("https://[::1]:8443/").hostname, "::1 is loopback"],
    [
      new URL("https://[::ffff:10.0.0.1]/").hostname,
      "::ffff:a00:1 is IPv4-mapped 10.0.0.1, which is private (RFC 1918)",
    ],
    [new URL("https://[fd00::5]/").hostname, "fd00::5 is unique-local (fc00::/7)"],
    [new URL("https://0.0.0.0/").hostname, '0.0.0.0 is "this network" (0.0.0.0/8)'],
    [new URL("https://localhost:5432/").hostname, "localhost is a loopback name"],
    [new URL("https://LOCALHOST./").hostname, "localhost. is a loopback name"],
    [new URL("https://keys.localhost/").hostname, "keys.localhost is a loopback name"],
    ["partner.example", null],
    ["localhost.example", null],
    ["mylocalhost", null],
    ["8.8.8.8", null],
    ["[2606:4700:4700::1111]", null],
  ])("%s: %s", (hostname, problem) => {
    expect(nonPublicHostProblem(hostname)).toBe(problem);
  });

  it("leaves names to the connection when only literals are judged", () => {
    expect(nonPublicLiteralProblem("localhost")).toBeNull();
    expect(nonPublicLiteralProblem("[fe80::1]")).toBe("fe80::1 is link-local");
  });
});

describe("with OUTBOUND_ALLOW's ranges", () => {
  const allowed = parseAddressRanges("127.0.0.0/8,10.1.0.0/16");

  it.each([
    ["127.0.0.1", null],
    ["::ffff:127.0.0.1", null],
    ["10.1.2.3", null],
    ["10.2.0.1", "private (RFC 1918)"],
    ["::1", "loopback"],
    ["169.254.169.254", "link-local"],
    ["8.8.8.8", null],
  ])("refusedAddressKind(%s): %s", (address, kind) => {
    expect(refusedAddressKind(address, allowed)).toBe(kind);
  });

  it("refuses what it refused before without them", () => {
    expect(refusedAddressKind("127.0.0.1")).toBe("loopback");
    expect(nonPublicLiteralProblem("127.0.0.1")).toBe("127.0.0.1 is loopback");
  });

  it.each([
    ["127.0.0.1", null],
    ["10.1.255.1", null],
    ["10.3.0.1", "10.3.0.1 is private (RFC 1918)"],
    ["[::1]", "::1 is loopback"],
    // A loopback name passes the text check once a loopback address is listed: what it resolves to is checked later.
    ["localhost", null],
    ["partner.example", null],
  ])("nonPublicHostProblem(%s): %s", (hostname, problem) => {
    expect(nonPublicHostProblem(hostname, allowed)).toBe(problem);
  });

  it("keeps loopback names refused when no loopback address is listed", () => {
    expect(nonPublicHostProblem("localhost", parseAddressRanges("10.0.0.0/8"))).toBe("localhost is a loopback name");
    expect(nonPublicHostProblem("localhost", parseAddressRanges("::1/128"))).toBeNull();
  });
});
