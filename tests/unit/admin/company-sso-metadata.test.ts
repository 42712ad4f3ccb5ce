/**
 * A company's provider as an operator or administrator describes it: Okta-, Google- and Entra-style files accepted,
 * and each refusal's message.
 */
import { describe, expect, it } from "vitest";
import { CompanySsoMetadataError, parseCompanySso } from "@/lib/admin/company-sso-metadata";
import { parseAddressRanges } from "@/lib/config/address-ranges";
import { STANDARD_CLAIMS, type CompanySsoWrite } from "@/lib/store/models/company-sso";
import { thrown } from "../../helpers/thrown";

const TENANT = "6f5e4d3c-2b1a-4098-8765-43210fedcba9";
const OKTA = { issuer: "https://optik.okta.com", client_id: "0oa1b2c3", client_secret: "s3cr3t~value" };
const DEVELOPMENT = { production: false };
const PRODUCTION = { production: true };

describe("parseCompanySso: accepted", () => {
  it.each<[string, Record<string, unknown>, Partial<CompanySsoWrite>]>([
    [
      "the least: issuer, client id and secret, with standard scope and claims",
      OKTA,
      {
        issuer: OKTA.issuer,
        clientId: "0oa1b2c3",
        clientSecret: "s3cr3t~value",
        authMethod: "client_secret_basic",
        scope: "openid email profile",
        claims: STANDARD_CLAIMS,
        hostedDomain: null,
        tenantId: null,
        enabled: undefined,
        ssoOnly: undefined,
      },
    ],
    [
      "Google Workspace with its hosted domain",
      {
        issuer: "https://accounts.google.com",
        client_id: "1234-abc.apps.googleusercontent.com",
        scope: "openid email",
        hosted_domain: "Optik-Muster.DE",
        token_endpoint_auth_method: "client_secret_post",
      },
      { hostedDomain: "optik-muster.de", scope: "openid email", authMethod: "client_secret_post" },
    ],
    [
      "OptiGate's own key instead of a secret",
      { issuer: OKTA.issuer, client_id: "0oa1b2c3", token_endpoint_auth_method: "private_key_jwt" },
      { authMethod: "private_key_jwt", scope: "openid email profile" },
    ],
    [
      "Entra ID's multi-tenant issuer with the company's tenant, groups mapped to roles",
      {
        ...OKTA,
        issuer: "https://login.microsoftonline.com/{tenantid}/v2.0",
        tenant_id: TENANT.toUpperCase(),
        claims: { email: "preferred_username", groups: "groups", roles: { "0a1b-admins": "admin" } },
        sso_only: true,
        enabled: false,
      },
      {
        tenantId: TENANT,
        claims: {
          ...STANDARD_CLAIMS,
          email: "preferred_username",
          groups: "groups",
          roles: { "0a1b-admins": "admin" },
        },
        ssoOnly: true,
        enabled: false,
      },
    ],
    [
      "an issuer on the local machine outside production",
      { ...OKTA, issuer: "http://127.0.0.1:4010/oidc" },
      { issuer: "http://127.0.0.1:4010/oidc" },
    ],
  ])("%s", (_case, file, expected) => {
    expect(parseCompanySso(file, DEVELOPMENT)).toMatchObject(expected);
    expect("clientSecret" in parseCompanySso(file, DEVELOPMENT)).toBe("client_secret" in file);
  });

  it("lets an operator's provider be on OUTBOUND_ALLOW's ranges in production", () => {
    const internal = { ...OKTA, issuer: "https://10.1.2.3/idp" };
    const outboundAllow = parseAddressRanges("10.0.0.0/8");
    expect(parseCompanySso(internal, { production: true, outboundAllow }).issuer).toBe("https://10.1.2.3/idp");
    expect(thrown(CompanySsoMetadataError, () => parseCompanySso(internal, PRODUCTION)).message).toBe(
      'issuer "https://10.1.2.3/idp" must be on a public address: 10.1.2.3 is private (RFC 1918)',
    );
  });
});

describe("parseCompanySso: refused", () => {
  it.each<[string, unknown, string, { production: boolean }?]>([
    ["no object", [OKTA], "a company's provider must be a JSON object"],
    [
      "an unknown field",
      { ...OKTA, clientsecret: "x" },
      'unknown field "clientsecret" (did you mean "client_secret"?)',
    ],
    ["no issuer", { ...OKTA, issuer: undefined }, "issuer must be 1 to 2000 printable ASCII characters without spaces"],
    [
      "an http issuer elsewhere",
      { ...OKTA, issuer: "http://idp.example" },
      'issuer "http://idp.example" must use https (http only on a loopback host, for development)',
    ],
    [
      "http in production",
      { ...OKTA, issuer: "http://127.0.0.1:4010" },
      'issuer "http://127.0.0.1:4010" must use https',
      PRODUCTION,
    ],
    [
      "a loopback name in production",
      { ...OKTA, issuer: "https://localhost/idp" },
      'issuer "https://localhost/idp" must be on a public address: localhost is a loopback name',
      PRODUCTION,
    ],
    [
      "a query",
      { ...OKTA, issuer: "https://idp.example/?tenant=1" },
      'issuer "https://idp.example/?tenant=1" must not contain a query (OpenID Connect Discovery §3)',
    ],
    [
      "credentials",
      { ...OKTA, issuer: "https://me:pw@idp.example" },
      'issuer "https://me:pw@idp.example" must not contain credentials',
    ],
    [
      "{tenantid} twice",
      { ...OKTA, issuer: "https://idp.example/{tenantid}/{tenantid}" },
      "issuer may hold {tenantid} once, and no other braces",
    ],
    [
      "{tenantid} in the host",
      { ...OKTA, issuer: "https://{tenantid}.idp.example/", tenant_id: TENANT },
      "issuer holds {tenantid} in its path only",
    ],
    [
      "{tenantid} without tenant_id",
      { ...OKTA, issuer: "https://login.microsoftonline.com/{tenantid}/v2.0" },
      "tenant_id is needed with {tenantid} in the issuer: the company speaks for its tenant only",
    ],
    [
      "a tenant_id that is no GUID",
      { ...OKTA, tenant_id: "common" },
      "tenant_id must be the Entra ID tenant's id, a GUID",
    ],
    [
      "a client_id with a space",
      { ...OKTA, client_id: "my app" },
      "client_id must be 1 to 255 printable ASCII characters without spaces",
    ],
    [
      "a long client_secret",
      { ...OKTA, client_secret: "x".repeat(513) },
      "client_secret must be 1 to 512 printable ASCII characters without spaces",
    ],
    ["a scope without openid", { ...OKTA, scope: "email profile" }, 'scope must include "openid"'],
    ["a scope twice", { ...OKTA, scope: "openid email email" }, "scope names a scope twice"],
    [
      "a scope with a quote",
      { ...OKTA, scope: 'openid "x"' },
      "scope must be scope names one space apart, at most 1000 characters",
    ],
    [
      "another auth method",
      { ...OKTA, token_endpoint_auth_method: "none" },
      "token_endpoint_auth_method must be one of client_secret_basic, client_secret_post, private_key_jwt",
    ],
    [
      "a secret with private_key_jwt",
      { ...OKTA, token_endpoint_auth_method: "private_key_jwt" },
      "client_secret is not used with private_key_jwt: OptiGate signs with its own key (its JWKS)",
    ],
    [
      "an unknown claim",
      { ...OKTA, claims: { mail: "email" } },
      'unknown field "mail" in claims (did you mean "email"?)',
    ],
    [
      "roles without groups",
      { ...OKTA, claims: { roles: { admins: "admin" } } },
      "claims.roles needs claims.groups: the claim that lists a person's groups",
    ],
    [
      "an unknown role",
      { ...OKTA, claims: { groups: "groups", roles: { admins: "boss" } } },
      'claims.roles["admins"]: there is no role "boss" (roles: user, admin, developer)',
    ],
    [
      "roles as a list",
      { ...OKTA, claims: { groups: "groups", roles: ["admin"] } },
      'claims.roles must map group values to roles, such as {"optigate-admins": "admin"}',
    ],
    [
      "a hosted domain that is none",
      { ...OKTA, hosted_domain: "localhost" },
      'hosted_domain: "localhost" is a single label: give the whole domain, such as example.com',
    ],
    ["sso_only as text", { ...OKTA, sso_only: "yes" }, "sso_only must be true or false"],
  ])("%s", (_case, file, message, rules = DEVELOPMENT) => {
    expect(thrown(CompanySsoMetadataError, () => parseCompanySso(file, rules)).message).toBe(message);
  });
});
