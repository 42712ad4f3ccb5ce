/**
 * The management API's schemas of a company's own sign-in: the provider as `companies sso set` describes it (the
 * secret write-only), as the API shows it (never the secret: whether one is stored), and the email domains.
 */
const CLAIMS = {
  type: "object",
  description: "The provider's claim names under the standard claim each stands for, and group values that give roles.",
  additionalProperties: false,
  properties: {
    email: { type: "string", maxLength: 200 },
    given_name: { type: "string", maxLength: 200 },
    family_name: { type: "string", maxLength: 200 },
    groups: { type: "string", maxLength: 200 },
    roles: { type: "object", additionalProperties: { type: "string" } },
  },
};

const SETTINGS = {
  issuer: { type: "string", maxLength: 2048, description: "As the provider's discovery document names it." },
  client_id: { type: "string", maxLength: 255 },
  token_endpoint_auth_method: { enum: ["client_secret_basic", "client_secret_post", "private_key_jwt"] },
  scope: { type: "string", description: "Scope names one space apart, with openid." },
  claims: CLAIMS,
  hosted_domain: { type: ["string", "null"], description: "Google Workspace: the `hd` the people must have." },
  tenant_id: { type: ["string", "null"], description: "Entra ID: the tenant the people must belong to (a GUID)." },
  enabled: { type: "boolean" },
  sso_only: { type: "boolean" },
};

const DNS_RECORD = {
  type: "object",
  required: ["name", "type", "value"],
  additionalProperties: false,
  properties: { name: { type: "string" }, type: { const: "TXT" }, value: { type: "string" } },
};

export const SSO_SCHEMAS = {
  CompanySsoDescription: {
    type: "object",
    description:
      "The provider as `companies sso set` reads it. client_secret is write-only: omitted, the stored one is kept " +
      "while issuer, client_id and token_endpoint_auth_method stay the same.",
    required: ["issuer", "client_id"],
    additionalProperties: false,
    properties: { ...SETTINGS, client_secret: { type: "string", maxLength: 512, writeOnly: true } },
  },
  CompanySso: {
    type: "object",
    required: [
      "company_id",
      "issuer",
      "client_id",
      "client_secret_set",
      "token_endpoint_auth_method",
      "scope",
      "claims",
      "hosted_domain",
      "tenant_id",
      "enabled",
      "sso_only",
      "registered_by_operator",
      "tested_at",
      "updated_at",
    ],
    additionalProperties: false,
    properties: {
      company_id: { type: "string" },
      ...SETTINGS,
      client_secret_set: { type: "boolean", description: "Whether a client secret is stored; it is never shown." },
      registered_by_operator: { type: "boolean" },
      tested_at: { type: ["string", "null"], format: "date-time" },
      updated_at: { type: "string", format: "date-time" },
    },
  },
  CompanyDomainClaim: {
    type: "object",
    required: ["domain"],
    additionalProperties: false,
    properties: {
      domain: { type: "string", maxLength: 300 },
      verified: {
        type: "boolean",
        description: "Vouch for the domain without its DNS record: operators' clients only.",
      },
    },
  },
  CompanyDomain: {
    type: "object",
    required: ["domain", "company_id", "verified", "verified_at", "verified_by", "created_at"],
    additionalProperties: false,
    properties: {
      domain: { type: "string" },
      company_id: { type: "string" },
      verified: { type: "boolean" },
      verified_at: { type: ["string", "null"], format: "date-time" },
      verified_by: { enum: ["dns", "operator", null] },
      created_at: { type: "string", format: "date-time" },
      dns_record: { ...DNS_RECORD, description: "Unverified domains: the record that proves the domain." },
    },
  },
};
