/** A trusted issuer as the operator describes it: what is accepted, and each refusal's message. */
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseTrustedIssuer, TrustedIssuerError } from "@/lib/admin/trusted-issuer-metadata";
import type { TrustedIssuerRegistration } from "@/lib/store/models/trusted-issuer";
import { thrown } from "../../helpers/thrown";

const ISSUER = "https://idp.partner.example";
const JWKS_URI = `${ISSUER}/jwks`;
const jwks = { keys: [generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ format: "jwk" })] };
const valid = { issuer: ISSUER, jwks_uri: JWKS_URI, clients: ["demo-web"], subject: "email", companies: ["c1"] };
const parsed: TrustedIssuerRegistration = {
  issuer: ISSUER,
  jwks: null,
  jwksUri: JWKS_URI,
  clientIds: ["demo-web"],
  subjectMapping: "email",
  reach: { companies: ["c1"], emailDomains: [] },
};
const ids = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);
const NO_REACH =
  "name whom the issuer speaks for: companies (company ids) and/or email_domains; it may assert only those users";
const DOMAINS = "email_domains must be a list of lower-case domain names such as lens-maker.example";

describe("parseTrustedIssuer: accepted", () => {
  it.each<[string, Record<string, unknown>, boolean, TrustedIssuerRegistration]>([
    ["a key set URL, email subjects and companies", valid, false, parsed],
    ["the same in production", valid, true, parsed],
    [
      "inline keys, linked subjects and email domains",
      {
        issuer: ISSUER,
        jwks,
        clients: ["a", "b"],
        subject: "link",
        email_domains: ["lens-maker.example", "xn--brillen-mller-5pb.example"],
      },
      false,
      {
        ...parsed,
        jwks: jwks as never,
        jwksUri: null,
        clientIds: ["a", "b"],
        subjectMapping: "link",
        reach: { companies: [], emailDomains: ["lens-maker.example", "xn--brillen-mller-5pb.example"] },
      },
    ],
    [
      "companies and email domains",
      { ...valid, email_domains: ["lens.example"] },
      false,
      { ...parsed, reach: { companies: ["c1"], emailDomains: ["lens.example"] } },
    ],
    [
      "an issuer with a path, and 50 clients and companies",
      { ...valid, issuer: `${ISSUER}/tenant-1`, clients: ids(50, "client-"), companies: ids(50, "c") },
      false,
      {
        ...parsed,
        issuer: `${ISSUER}/tenant-1`,
        clientIds: ids(50, "client-"),
        reach: { companies: ids(50, "c"), emailDomains: [] },
      },
    ],
    [
      "a loopback issuer and key set URL outside production",
      { ...valid, issuer: "http://localhost:9000", jwks_uri: "http://localhost:9000/jwks" },
      false,
      { ...parsed, issuer: "http://localhost:9000", jwksUri: "http://localhost:9000/jwks" },
    ],
  ])("%s (production: %s)", (_, input, production, registration) => {
    expect(parseTrustedIssuer(input, { production })).toEqual(registration);
  });
});

describe("parseTrustedIssuer: refusals", () => {
  it.each<[string, unknown, boolean, string]>([
    ["a string", "https://idp.partner.example", false, "a trusted issuer must be a JSON object"],
    ["null", null, false, "a trusted issuer must be a JSON object"],
    ["an array", [valid], false, "a trusted issuer must be a JSON object"],
    [
      "an unknown field",
      { ...valid, scope: "openid" },
      false,
      'unknown field "scope" (known: issuer, jwks, jwks_uri, clients, subject, companies, email_domains)',
    ],
    [
      "a field mistyped",
      { ...valid, client: ["demo-backend"] },
      false,
      'unknown field "client" (did you mean "clients"? known: issuer, jwks, jwks_uri, clients, subject, companies, email_domains)',
    ],
    ["no subject", { ...valid, subject: undefined }, false, 'subject must be "email" or "link"'],
    ["an unknown subject", { ...valid, subject: "sub" }, false, 'subject must be "email" or "link"'],
    ["no issuer", { ...valid, issuer: undefined }, false, "issuer must be the issuer's URL"],
    ["an empty issuer", { ...valid, issuer: "" }, false, "issuer must be the issuer's URL"],
    ["an issuer that is no string", { ...valid, issuer: 1 }, false, "issuer must be the issuer's URL"],
    [
      "an issuer of 2001 characters",
      { ...valid, issuer: `${ISSUER}/${"x".repeat(1973)}` },
      false,
      "issuer must be the issuer's URL",
    ],
    [
      "an http issuer",
      { ...valid, issuer: "http://idp.partner.example" },
      false,
      'issuer "http://idp.partner.example" must use https (http only on a loopback host, for development)',
    ],
    [
      "a loopback http issuer in production",
      { ...valid, issuer: "http://localhost:9000" },
      true,
      'issuer "http://localhost:9000" must use https',
    ],
    [
      "an issuer with a fragment",
      { ...valid, issuer: `${ISSUER}#x` },
      false,
      `issuer "${ISSUER}#x" must not contain a fragment`,
    ],
    [
      "an issuer with a query",
      { ...valid, issuer: `${ISSUER}?tenant=1` },
      false,
      `issuer "${ISSUER}?tenant=1" must not contain a query (RFC 8414 §2)`,
    ],
    ["no keys", { ...valid, jwks_uri: undefined }, false, "give the issuer's keys as either jwks_uri or jwks"],
    ["both kinds of keys", { ...valid, jwks }, false, "give the issuer's keys as either jwks_uri or jwks"],
    [
      "an empty key set",
      { ...valid, jwks_uri: undefined, jwks: { keys: [] } },
      false,
      'jwks must be a JWK Set with at least one key in "keys"',
    ],
    [
      "a key set URL on a private address in production",
      { ...valid, jwks_uri: "https://10.0.0.1/jwks" },
      true,
      'jwks_uri "https://10.0.0.1/jwks" must be a public address: 10.0.0.1 is private (RFC 1918)',
    ],
    [
      "no clients",
      { ...valid, clients: undefined },
      false,
      "clients must list the ids of the clients allowed to use the issuer's tokens",
    ],
    [
      "an empty client list",
      { ...valid, clients: [] },
      false,
      "clients must list the ids of the clients allowed to use the issuer's tokens",
    ],
    [
      "a client id instead of a list",
      { ...valid, clients: "demo-web" },
      false,
      "clients must list the ids of the clients allowed to use the issuer's tokens",
    ],
    ["51 clients", { ...valid, clients: ids(51, "client-") }, false, "clients may list at most 50 ids"],
    ["a client id that is no string", { ...valid, clients: [7] }, false, "clients must be client ids (strings)"],
    ["a client id with a space", { ...valid, clients: ["demo web"] }, false, "clients must be client ids (strings)"],
    [
      "a client id of 65 characters",
      { ...valid, clients: ["c".repeat(65)] },
      false,
      "clients must be client ids (strings)",
    ],
    ["a repeated client", { ...valid, clients: ["demo-web", "demo-web"] }, false, 'clients lists "demo-web" twice'],
    ["companies that are no list", { ...valid, companies: "c1" }, false, "companies must be a list of company ids"],
    [
      "a company id with a space",
      { ...valid, companies: ["c 1"] },
      false,
      'companies must be a list of company ids; "c 1" is not one',
    ],
    [
      "a company id that is no string",
      { ...valid, companies: [5] },
      false,
      'companies must be a list of company ids; "5" is not one',
    ],
    ["51 companies", { ...valid, companies: ids(51, "c") }, false, "companies may list at most 50 entries"],
    ["a repeated company", { ...valid, companies: ["c1", "c1"] }, false, 'companies lists "c1" twice'],
    [
      "a domain in capitals",
      { ...valid, email_domains: ["Lens.example"] },
      false,
      `${DOMAINS}; "Lens.example" is not one`,
    ],
    [
      "a wildcard domain",
      { ...valid, email_domains: ["*.lens.example"] },
      false,
      `${DOMAINS}; "*.lens.example" is not one`,
    ],
    ["a single-label domain", { ...valid, email_domains: ["localhost"] }, false, `${DOMAINS}; "localhost" is not one`],
    [
      "a domain with an @",
      { ...valid, email_domains: ["@lens.example"] },
      false,
      `${DOMAINS}; "@lens.example" is not one`,
    ],
    [
      "a long bad domain, quoted to 80 characters",
      { ...valid, email_domains: ["D".repeat(100)] },
      false,
      `${DOMAINS}; "${"D".repeat(80)}" is not one`,
    ],
    [
      "a repeated domain",
      { ...valid, email_domains: ["lens.example", "lens.example"] },
      false,
      'email_domains lists "lens.example" twice',
    ],
    ["neither companies nor domains", { ...valid, companies: undefined }, false, NO_REACH],
    ["empty companies and domains", { ...valid, companies: [], email_domains: [] }, false, NO_REACH],
  ])("refuses %s (production: %s)", (_, input, production, message) => {
    expect(thrown(TrustedIssuerError, () => parseTrustedIssuer(input, { production })).message).toBe(message);
  });

  it("checks for production only when asked to", () => {
    expect(parseTrustedIssuer({ ...valid, jwks_uri: "https://10.0.0.1/jwks" }).jwksUri).toBe("https://10.0.0.1/jwks");
  });
});
