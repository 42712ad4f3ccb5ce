import { describe, expect, it } from "vitest";
import type { CompanySsoConfig } from "@/lib/oauth/company-sso/company-sso-config";
import { idTokenProblem } from "@/lib/oauth/company-sso/id-token-problem";
import { lacksProfileClaims, upstreamIdentity } from "@/lib/oauth/company-sso/upstream-identity";

const CONFIG: CompanySsoConfig = {
  companyId: "company-lens-works",
  issuer: "https://idp.lens-works.example",
  clientId: "optigate",
  authMethod: "client_secret_basic",
  scope: "openid email profile",
  claims: {},
  registeredByOperator: false,
};
const ID_TOKEN = { iss: CONFIG.issuer, sub: "248289761001", aud: "optigate" };

describe("upstreamIdentity", () => {
  it("maps the standard claims, and the assurance the provider reports", () => {
    const claims = {
      ...ID_TOKEN,
      email: "anna@lens-works.example",
      email_verified: true,
      given_name: "Anna",
      family_name: "Berg",
      amr: ["pwd", "mfa"],
      acr: "urn:example:mfa",
      groups: ["ignored without a mapping"],
    };
    expect(upstreamIdentity(CONFIG, claims)).toEqual({
      issuer: CONFIG.issuer,
      subject: "248289761001",
      email: "anna@lens-works.example",
      emailVerified: true,
      givenName: "Anna",
      familyName: "Berg",
      amr: ["pwd", "mfa"],
      acr: "urn:example:mfa",
    });
  });

  it("reads the claims a registration names instead; a single group is a list of one", () => {
    const config = { ...CONFIG, claims: { email: "upn", given_name: "first", family_name: "last", groups: "roles" } };
    const claims = { ...ID_TOKEN, upn: "kim@contoso.example", first: "Kim", last: "Lee", roles: "Opticians" };
    expect(upstreamIdentity(config, { ...claims, email_verified: true })).toMatchObject({
      email: "kim@contoso.example",
      // email_verified speaks of the email claim, not of upn.
      emailVerified: false,
      givenName: "Kim",
      familyName: "Lee",
      groups: ["Opticians"],
    });
  });

  it.each([
    ["email_verified false", { email: "a@b.example", email_verified: false }, {}, false],
    ["email_verified as a string", { email: "a@b.example", email_verified: "true" }, {}, false],
    ["no email_verified", { email: "a@b.example" }, {}, false],
    ["the email and its verification from userinfo", {}, { email: "a@b.example", email_verified: true }, true],
    [
      "the ID token's email, userinfo's verification of another",
      { email: "a@b.example" },
      { email: "c@d.example", email_verified: true },
      false,
    ],
  ])("emailVerified with %s", (_case, idToken, userinfo, verified) =>
    expect(upstreamIdentity(CONFIG, { ...ID_TOKEN, ...idToken }, userinfo).emailVerified).toBe(verified),
  );

  it("lets the signed ID token win over userinfo, and takes amr and acr from the ID token only", () => {
    const identity = upstreamIdentity(
      CONFIG,
      { ...ID_TOKEN, given_name: "Anna" },
      { given_name: "Mallory", family_name: "Berg", amr: ["mfa"], acr: "high" },
    );
    expect(identity).toEqual({
      issuer: CONFIG.issuer,
      subject: "248289761001",
      emailVerified: false,
      givenName: "Anna",
      familyName: "Berg",
    });
  });
  it("keeps the provider's session from the ID token only, and leaves out one too long to keep", () => {
    const sid = "08a5019c-17e1-4977-8f42-65a12843ea02";
    expect(upstreamIdentity(CONFIG, { ...ID_TOKEN, sid }).sid).toBe(sid);
    expect(upstreamIdentity(CONFIG, ID_TOKEN, { sid }).sid).toBeUndefined();
    expect(upstreamIdentity(CONFIG, { ...ID_TOKEN, sid: "s".repeat(256) }).sid).toBeUndefined();
  });
});

describe("lacksProfileClaims", () => {
  it("asks userinfo when the email or a name is missing", () => {
    const full = { ...ID_TOKEN, email: "a@b.example", given_name: "A", family_name: "B" };
    expect(lacksProfileClaims(CONFIG, full)).toBe(false);
    expect(lacksProfileClaims(CONFIG, { ...full, family_name: undefined })).toBe(true);
    expect(lacksProfileClaims({ ...CONFIG, claims: { email: "upn" } }, full)).toBe(true);
  });
});

describe("idTokenProblem", () => {
  it.each([
    ["a plain ID token", {}, {}, null],
    ["the hosted domain", { hostedDomain: "optik-muster.de" }, { hd: "optik-muster.de" }, null],
    [
      "another hosted domain",
      { hostedDomain: "optik-muster.de" },
      { hd: "gmail.com" },
      'the ID token\'s hd "gmail.com" is not the hosted domain optik-muster.de',
    ],
    [
      "a personal account",
      { hostedDomain: "optik-muster.de" },
      {},
      "the ID token has no hd, and the hosted domain is optik-muster.de",
    ],
    [
      "a subject too long to keep",
      {},
      { sub: "s".repeat(256) },
      "the ID token's sub is not a string of at most 255 characters",
    ],
    [
      "another tenant",
      { tenantId: "tenant-a" },
      { tid: "tenant-b" },
      `the ID token's tid "tenant-b" is not the tenant tenant-a`,
    ],
  ])("%s", (_case, changes, claims, problem) =>
    expect(idTokenProblem({ ...CONFIG, ...changes }, { ...ID_TOKEN, ...claims })).toBe(problem),
  );
});
