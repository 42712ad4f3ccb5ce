/** Browsers are named only from a fixed list: a user agent's own text never reaches a page or a security mail. */
import { describe, expect, it } from "vitest";
import { describeUserAgent } from "@/lib/account/own-sessions";

describe("describeUserAgent", () => {
  it("names known browsers with their major version and system", () => {
    const chrome =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    expect(describeUserAgent(chrome)).toBe("Chrome 131 · Windows");
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0";
    expect(describeUserAgent(firefox)).toBe("Firefox 131 · Linux");
  });

  it("names nothing the caller made up", () => {
    expect(describeUserAgent("IT maintenance, no action needed, see evil.example/1.0")).toBeNull();
    expect(describeUserAgent("curl/8.5.0")).toBeNull();
    expect(describeUserAgent("")).toBeNull();
    expect(describeUserAgent(null)).toBeNull();
  });
});
