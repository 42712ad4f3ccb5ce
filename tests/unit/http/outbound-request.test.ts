import type { LookupAddress, LookupOptions } from "node:dns";
import { createServer } from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { describe, expect, it } from "vitest";
import { NonPublicAddress, outboundRequest, publicAddressLookup } from "@/lib/http/outbound-request";
import { parseAddressRanges, type AddressRanges } from "@/lib/config/address-ranges";

/** A resolver that answers from a table, as dns.lookup does: one address, or all of them when `all` is asked. */
function resolverOf(table: Record<string, string[]>): LookupFunction {
  return (hostname, options, callback) => {
    const found = table[hostname];
    if (!found)
      return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "", 0);
    const entries: LookupAddress[] = found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    if (options.all) return callback(null, entries);
    callback(null, entries[0].address, entries[0].family);
  };
}

const resolver = resolverOf({
  "keys.partner.example": ["203.0.114.10", "2606:4700::6810:1"],
  "rebound.partner.example": ["127.0.0.1"],
  "mixed.partner.example": ["203.0.114.10", "10.0.0.7"],
  "metadata.partner.example": ["::ffff:169.254.169.254"],
});

function lookUp(
  hostname: string,
  options: LookupOptions,
  allowed?: AddressRanges,
): Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[] }> {
  return new Promise((resolve) =>
    publicAddressLookup(resolver, allowed)(hostname, options, (error, address) => resolve({ error, address })),
  );
}

describe("publicAddressLookup", () => {
  it.each([
    ["rebound.partner.example", { all: false }, "rebound.partner.example resolves to 127.0.0.1, which is loopback"],
    ["rebound.partner.example", { all: true }, "rebound.partner.example resolves to 127.0.0.1, which is loopback"],
    ["mixed.partner.example", { all: true }, "mixed.partner.example resolves to 10.0.0.7, which is private (RFC 1918)"],
    [
      "metadata.partner.example",
      { all: true },
      "metadata.partner.example resolves to ::ffff:169.254.169.254, which is IPv4-mapped 169.254.169.254, which is link-local",
    ],
  ])("refuses %s (%o)", async (hostname, options, message) => {
    const { error } = await lookUp(hostname, options);
    expect(error).toBeInstanceOf(NonPublicAddress);
    expect([error?.code, error?.message]).toEqual(["non_public_address", message]);
  });

  it("passes public answers and resolver errors on unchanged", async () => {
    expect(await lookUp("keys.partner.example", { all: false })).toEqual({ error: null, address: "203.0.114.10" });
    expect((await lookUp("keys.partner.example", { all: true })).address).toEqual([
      { address: "203.0.114.10", family: 4 },
      { address: "2606:4700::6810:1", family: 6 },
    ]);
    expect((await lookUp("nowhere.example", { all: true })).error?.code).toBe("ENOTFOUND");
  });
  it("passes answers in OUTBOUND_ALLOW's ranges; a name with any other internal address is still refused whole", async () => {
    const internal = parseAddressRanges("127.0.0.0/8");
    expect(await lookUp("rebound.partner.example", { all: true }, internal)).toEqual({
      error: null,
      address: [{ address: "127.0.0.1", family: 4 }],
    });
    const mixed = await lookUp("mixed.partner.example", { all: true }, internal);
    expect(mixed.error?.message).toBe("mixed.partner.example resolves to 10.0.0.7, which is private (RFC 1918)");
    expect((await lookUp("mixed.partner.example", { all: true }, parseAddressRanges("10.0.0.0/8"))).error).toBeNull();
  });
});

describe("outboundRequest", () => {
  it("posts the body to a server, and refuses one at a non-public address when held to public ones", async () => {
    const bodies: string[] = [];
    const server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        bodies.push(`${request.method} ${body}`);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/backchannel`);
    const post = (publicOnly: boolean, allowed?: AddressRanges) =>
      outboundRequest(url, {
        allowed,
        method: "POST",
        body: "logout_token=x",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        signal: AbortSignal.timeout(2000),
        publicOnly,
      });
    try {
      expect((await post(false)).statusCode).toBe(204);
      await expect(post(true)).rejects.toBeInstanceOf(NonPublicAddress);
      expect(bodies).toEqual(["POST logout_token=x"]);
      // OUTBOUND_ALLOW lets the loopback through (a literal, checked before connecting).
      expect((await post(true, parseAddressRanges("127.0.0.0/8"))).statusCode).toBe(204);
      await expect(post(true, parseAddressRanges("::1/128"))).rejects.toThrow("127.0.0.1 is loopback");
      expect(bodies).toHaveLength(2);
    } finally {
      server.close();
    }
  });
});
