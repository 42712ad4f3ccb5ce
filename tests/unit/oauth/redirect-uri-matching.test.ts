/** Redirect and post-logout URIs match exactly, but for an empty path standing for "/" (RFC 3986 §6.2.3). */
import { describe, expect, it } from "vitest";
import { isAllowedRedirectUri, isRegisteredUri, sameUri } from "@/lib/oauth/redirect-uri-matching";

describe("sameUri", () => {
  it.each([
    ["http://localhost:4000", "http://localhost:4000/", true],
    ["http://localhost:4000/", "http://localhost:4000", true],
    ["https://app.example?x=1", "https://app.example/?x=1", true],
    ["https://app.example#top", "https://app.example/#top", true],
    ["https://app.example/cb", "https://app.example/cb", true],
    ["https://app.example/cb", "https://app.example/cb/", false],
    ["https://app.example//", "https://app.example/", false],
    ["HTTPS://app.example/", "https://app.example/", false],
    ["https://APP.example/", "https://app.example/", false],
    ["https://app.example:443/", "https://app.example/", false],
    ["https://app.example/%7Euser", "https://app.example/~user", false],
    ["https://app.example?", "https://app.example/", false],
    ["com.example.app:/callback", "com.example.app:/callback", true],
    ["com.example.app:", "com.example.app:/", false],
    ["urn:example", "urn:example/", false],
  ])("%s and %s: %s", (a, b, same) => {
    expect(sameUri(a, b)).toBe(same);
  });
});

describe("isAllowedRedirectUri", () => {
  const web = { kind: "web" as const, redirectUris: ["https://shop.example", "https://shop.example/cb"] };
  const native = { kind: "native" as const, redirectUris: ["com.example.app:/cb"] };

  it.each([
    [web, "https://shop.example/", true],
    [web, "https://shop.example", true],
    [web, "https://shop.example/cb", true],
    [web, "https://shop.example/cb/", false],
    [web, "https://shop.example.evil/", false],
    [web, "http://127.0.0.1:5000/cb", false],
    [native, "http://127.0.0.1:5000/cb", true],
    [native, "http://[::1]:5000/cb", true],
    [native, "http://localhost:5000/cb", false],
    [native, "http://127.0.0.1:5000/cb#x", false],
    [native, "com.example.app:/cb", true],
  ])("%o with %s: %s", (client, uri, allowed) => {
    expect(isAllowedRedirectUri(client, uri)).toBe(allowed);
  });

  it("finds a post-logout URI in a list the same way", () => {
    expect(isRegisteredUri(["http://localhost:4000/"], "http://localhost:4000")).toBe(true);
    expect(isRegisteredUri(["http://localhost:4000/"], "http://localhost:4000/x")).toBe(false);
    expect(isRegisteredUri([], "http://localhost:4000/")).toBe(false);
  });
});
