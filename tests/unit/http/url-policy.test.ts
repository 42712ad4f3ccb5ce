/** What a registrar accepts as a redirect URI, a CORS origin or a resource server (RFC 6749 §3.1.2, RFC 8252 §7, OAuth 2.0 BCP). */
import { describe, expect, it } from "vitest";
import {
  corsOriginProblem,
  isFetchableScheme,
  isLoopbackHost,
  redirectUriProblem,
  resourceUriProblem,
} from "@/lib/http/url-policy";

const HTTPS_ONLY = "must use https (http is allowed for localhost and loopback addresses only)";

describe("isLoopbackHost", () => {
  it.each([
    ["localhost", true],
    ["127.0.0.1", true],
    ["[::1]", true],
    ["::1", false],
    ["127.0.0.2", false],
    ["app.localhost", false],
    ["LOCALHOST", false],
    ["example.com", false],
  ])("%s: %s", (hostname, loopback) => {
    expect(isLoopbackHost(hostname)).toBe(loopback);
  });
});

describe("isFetchableScheme", () => {
  it.each([
    ["https://keys.partner.example/jwks", false, true],
    ["https://keys.partner.example/jwks", true, true],
    ["http://127.0.0.1:4000/jwks", false, true],
    ["http://localhost:4000/jwks", false, true],
    ["http://127.0.0.1:4000/jwks", true, false],
    ["http://keys.partner.example/jwks", false, false],
    ["ftp://keys.partner.example/jwks", false, false],
  ])("%s (production: %s): %s", (url, production, fetchable) => {
    expect(isFetchableScheme(new URL(url), production)).toBe(fetchable);
  });
});

describe("redirectUriProblem: accepted", () => {
  it.each([
    ["https://shop.example/callback", false],
    ["https://shop.example:8443/cb?tenant=1", false],
    ["http://localhost:4000/callback", false],
    ["http://127.0.0.1:5000/cb", true],
    ["http://[::1]/cb", true],
    ["com.example.app:/callback", true],
    ["com.example.app:/oauth2redirect/example-provider", true],
  ])("%s (native: %s)", (uri, native) => {
    expect(redirectUriProblem(uri, native)).toBeUndefined();
  });
});

describe("redirectUriProblem: refusals", () => {
  it.each([
    ["https://shop.example/cb?x=ä", false, "must be printable ASCII without spaces (percent-encode other characters)"],
    ["https://shop.example/my cb", false, "must be printable ASCII without spaces (percent-encode other characters)"],
    ["", false, "must be printable ASCII without spaces (percent-encode other characters)"],
    ["https://shop.example/cb#top", false, "must not contain a fragment (#)"],
    ["https://shop.example/cb#", false, "must not contain a fragment (#)"],
    ["/callback", false, "must be an absolute URI"],
    ["https://user:pw@shop.example/cb", false, "must not contain user credentials"],
    ["https://user@shop.example/cb", false, "must not contain user credentials"],
    ["http://shop.example/cb", false, HTTPS_ONLY],
    ["http://shop.example/cb", true, HTTPS_ONLY],
    ["http://127.0.0.2/cb", false, HTTPS_ONLY],
    ["com.example.app:/callback", false, "may use a private-use scheme only for native clients"],
    ["javascript:alert(1)", false, HTTPS_ONLY],
    ["myapp:/callback", false, HTTPS_ONLY],
    [
      "myapp:/callback",
      true,
      "must use https, http on a loopback address, or a private-use scheme named as a reverse domain (com.example.app:/callback)",
    ],
    [
      "file:///etc/passwd",
      true,
      "must use https, http on a loopback address, or a private-use scheme named as a reverse domain (com.example.app:/callback)",
    ],
  ])("%s (native: %s): %s", (uri, native, problem) => {
    expect(redirectUriProblem(uri, native)).toBe(problem);
  });
});

describe("corsOriginProblem", () => {
  it.each(["https://app.example", "https://app.example:8443", "http://localhost:3000", "http://127.0.0.1:8080"])(
    "accepts %s",
    (origin) => {
      expect(corsOriginProblem(origin)).toBeUndefined();
    },
  );

  it.each([
    ["app.example", "must be an origin such as https://app.example.com"],
    ["", "must be an origin such as https://app.example.com"],
    ["http://app.example", HTTPS_ONLY],
    ["ftp://app.example", HTTPS_ONLY],
    [
      "https://app.example/",
      "must be an origin only: scheme, host and port when not the default, without path or trailing slash (https://app.example)",
    ],
    [
      "https://app.example/cb",
      "must be an origin only: scheme, host and port when not the default, without path or trailing slash (https://app.example)",
    ],
    [
      "https://app.example:443",
      "must be an origin only: scheme, host and port when not the default, without path or trailing slash (https://app.example)",
    ],
    [
      "https://APP.example",
      "must be an origin only: scheme, host and port when not the default, without path or trailing slash (https://app.example)",
    ],
    [
      "https://user@app.example",
      "must be an origin only: scheme, host and port when not the default, without path or trailing slash (https://app.example)",
    ],
  ])("refuses %s", (origin, problem) => {
    expect(corsOriginProblem(origin)).toBe(problem);
  });
});

describe("resourceUriProblem (RFC 8707 §2)", () => {
  it.each([
    ["https://api.partner.example/orders", undefined],
    ["https://api.partner.example", undefined],
    ["http://localhost:4000/api", undefined],
    ["https://api.partner.example/orders?tenant=1", "must not contain a query (RFC 8707 §2)"],
    ["https://api.partner.example/orders#v1", "must not contain a fragment (#)"],
    ["http://api.partner.example/orders", HTTPS_ONLY],
    ["com.example.app:/api", "may use a private-use scheme only for native clients"],
    ["/orders", "must be an absolute URI"],
  ])("%s: %s", (uri, problem) => {
    expect(resourceUriProblem(uri)).toBe(problem);
  });
});
