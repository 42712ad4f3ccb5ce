import { describe, expect, it } from "vitest";
import { appendForwardedFor, clientAddress } from "@/lib/http/client-address";

const request = (forwardedFor?: string) => new Request("http://localhost/", { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} });

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
