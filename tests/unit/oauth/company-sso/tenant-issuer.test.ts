import { describe, expect, it } from "vitest";
import { discoveryUrl, issuerForTenant, tenantProblem } from "@/lib/oauth/company-sso/tenant-issuer";

const TEMPLATE = "https://login.microsoftonline.com/{tenantid}/v2.0";
const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const OTHER = "f8cdef31-a31e-4b4a-93e4-5f571e91255a";

describe("discoveryUrl", () => {
  it.each([
    ["https://accounts.google.com", "https://accounts.google.com/.well-known/openid-configuration"],
    ["https://idp.example/realms/lens/", "https://idp.example/realms/lens/.well-known/openid-configuration"],
    [TEMPLATE, "https://login.microsoftonline.com/organizations/v2.0/.well-known/openid-configuration"],
  ])("finds %s's metadata at %s", (issuer, url) => expect(discoveryUrl(issuer)).toBe(url));
});

describe("issuerForTenant", () => {
  it("fills a template, and leaves other issuers as they are", () => {
    expect(issuerForTenant(TEMPLATE, TENANT)).toBe(`https://login.microsoftonline.com/${TENANT}/v2.0`);
    expect(issuerForTenant("https://accounts.google.com", TENANT)).toBe("https://accounts.google.com");
  });
});

describe("tenantProblem", () => {
  const issuerOf = (tenant: string) => `https://login.microsoftonline.com/${tenant}/v2.0`;

  it.each([
    ["the company's tenant", TEMPLATE, TENANT, { iss: issuerOf(TENANT), tid: TENANT }, null],
    ["no tenant asked for", "https://idp.example", undefined, { iss: "https://idp.example" }, null],
    ["a tenant-specific issuer with its tid", issuerOf(TENANT), TENANT, { iss: issuerOf(TENANT), tid: TENANT }, null],
    [
      "another tenant",
      TEMPLATE,
      TENANT,
      { iss: issuerOf(OTHER), tid: OTHER },
      `the ID token's tid "${OTHER}" is not the tenant ${TENANT}`,
    ],
    [
      "a tid that is not its issuer's tenant",
      TEMPLATE,
      TENANT,
      { iss: issuerOf(OTHER), tid: TENANT },
      `the ID token's iss "${issuerOf(OTHER)}" is not ${issuerOf(TENANT)}`,
    ],
    ["no tid", TEMPLATE, TENANT, { iss: issuerOf(TENANT) }, `the ID token's tid undefined is not the tenant ${TENANT}`],
    [
      "the template itself as iss",
      TEMPLATE,
      TENANT,
      { iss: TEMPLATE, tid: TENANT },
      `the ID token's iss "${TEMPLATE}" is not ${issuerOf(TENANT)}`,
    ],
  ])("%s", (_case, issuer, tenantId, claims, problem) => expect(tenantProblem(issuer, tenantId, claims)).toBe(problem));
});
