import { describe, expect, it } from "vitest";
import { appendForwardedFor, clientAddress, throttledNetwork, wideNetwork } from "@/lib/http/client-address";

const request = (forwardedFor?: string) =>
  new Request("http://localhost/", { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} });

describe("clientAddress", () => {
  it("believes only the entry the server (and trusted proxies) added", () => {
    expect(clientAddress(request("6.6.6.6, 10.0.0.5"), 0)).toBe("10.0.0.5");
    expect(clientAddress(request("6.6.6.6, 203.0.113.9, 10.0.0.5"), 1)).toBe("203.0.113.9");
    expect(clientAddress(request("10.0.0.5"), 3)).toBe("10.0.0.5");
    expect(clientAddress(request(), 0)).toBeUndefined();
  });

  it("is appended to, never replaced, by the server", () => {
    expect(appendForwardedFor("6.6.6.6", "127.0.0.1")).toBe("6.6.6.6, 127.0.0.1");
    expect(appendForwardedFor(undefined, "::1")).toBe("::1");
    expect(appendForwardedFor(["a", "b"], undefined)).toBe("a, b");
  });
});

describe("clientAddress's limits", () => {
  it("takes only what looks like an IP address (it is stored and throttled on)", () => {
    expect(clientAddress(request("not-an-ip"), 0)).toBeUndefined();
    expect(clientAddress(request(`1.2.3.4, ${"9".repeat(100)}`), 0)).toBeUndefined();
    expect(clientAddress(request("2001:db8::1"), 0)).toBe("2001:db8::1");
  });
});

describe("throttledNetwork", () => {
  it("is an IPv4 address itself and an IPv6 address's /64", () => {
    expect(throttledNetwork("203.0.113.9")).toBe("203.0.113.9");
    expect(throttledNetwork("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(throttledNetwork("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(throttledNetwork("2001:DB8:1:2::5")).toBe("2001:db8:1:2::/64");
    expect(throttledNetwork("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(throttledNetwork("::1")).toBe("0:0:0:0::/64");
    expect(throttledNetwork("2001:0db8:0001:0002::")).toBe("2001:db8:1:2::/64");
  });
});

describe("wideNetwork", () => {
  it("is an IPv4 address's /24 and an IPv6 address's /48", () => {
    expect(wideNetwork("203.0.113.9")).toBe("203.0.113.0/24");
    expect(wideNetwork("::ffff:203.0.113.9")).toBe("203.0.113.0/24");
    expect(wideNetwork("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1::/48");
    expect(wideNetwork("2001:db8::1")).toBe("2001:db8:0::/48");
  });
});
