import { describe, expect, it } from "vitest";
import { companySsoConfigProblem, type CompanySsoConfig } from "@/lib/oauth/company-sso/company-sso-config";

const GOOD: CompanySsoConfig = {
  companyId: "company-lens-works",
  issuer: "https://accounts.google.com",
  clientId: "1234.apps.googleusercontent.com",
  clientSecret: "secret",
  authMethod: "client_secret_basic",
  scope: "openid email profile",
  claims: {},
  registeredByOperator: false,
};
const ENTRA = "https://login.microsoftonline.com/{tenantid}/v2.0";

describe("companySsoConfigProblem", () => {
  it.each<[string, Partial<CompanySsoConfig>, boolean, string | null]>([
    ["a Google Workspace registration", { hostedDomain: "optik-muster.de" }, true, null],
    [
      "an Entra template with the tenant",
      { issuer: ENTRA, tenantId: "72f988bf-86f1-41af-91ab-2d7cd011db47" },
      true,
      null,
    ],
    ["http on the loopback, outside production", { issuer: "http://127.0.0.1:4000" }, false, null],
    ["http on the loopback in production", { issuer: "http://127.0.0.1:4000" }, true, "the issuer must use https"],
    [
      "http elsewhere",
      { issuer: "http://idp.example" },
      false,
      "the issuer must use https (http only on a loopback host)",
    ],
    ["no URL", { issuer: "idp.example" }, true, "the issuer is not an absolute URL"],
    [
      "a query",
      { issuer: "https://idp.example/?tenant=a" },
      true,
      "the issuer must not contain credentials, a query or a fragment",
    ],
    [
      "credentials",
      { issuer: "https://user:pw@idp.example" },
      true,
      "the issuer must not contain credentials, a query or a fragment",
    ],
    [
      "a space",
      { issuer: "https://idp.example/a b" },
      true,
      "the issuer must be printable ASCII of at most 2000 characters",
    ],
    [
      "a template without the tenant",
      { issuer: ENTRA },
      true,
      "an issuer with {tenantid} needs the company's tenant id",
    ],
    [
      "the placeholder twice",
      { issuer: "https://idp.example/{tenantid}/{tenantid}", tenantId: "a" },
      true,
      "the issuer may hold {tenantid} once",
    ],
    [
      "the placeholder in a host",
      { issuer: "https://{tenantid}.idp.example/", tenantId: "a" },
      true,
      "{tenantid} must be a whole path segment of the issuer",
    ],
    [
      "a tenant id with a slash",
      { issuer: ENTRA, tenantId: "a/b" },
      true,
      "the tenant id must be a GUID or a domain name",
    ],
    ["no openid scope", { scope: "email profile" }, true, "the scope must include openid"],
    [
      "a hosted domain in capitals",
      { hostedDomain: "Optik-Muster.de" },
      true,
      "the hosted domain must be a domain name in lower case",
    ],
    [
      "another client authentication",
      { authMethod: "tls_client_auth" as CompanySsoConfig["authMethod"] },
      true,
      "the client authentication must be one of client_secret_basic, client_secret_post, private_key_jwt",
    ],
    [
      "private_key_jwt without OptiGate's key",
      { authMethod: "private_key_jwt" as const },
      true,
      "private_key_jwt needs OptiGate's signing key",
    ],
  ])("%s", (_case, changes, production, problem) =>
    expect(companySsoConfigProblem({ ...GOOD, ...changes }, production)).toBe(problem),
  );
});
