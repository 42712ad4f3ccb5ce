/**
 * The OpenAPI schemas of /manage/v1/clients: RFC 7591 client metadata as `clients add` and the operator's form take
 * it (lib/admin/client-metadata.ts holds the rules; the schema names the usual fields), and a client as the operator
 * reads it (lib/admin/client-record.ts, the JSON of `clients show`).
 */
const uris = { type: "array", items: { type: "string", format: "uri" }, maxItems: 50 };
const dateTime = { type: "string", format: "date-time" };
const nullableDateTime = { type: ["string", "null"], format: "date-time" };

const METADATA_PROPERTIES = {
  client_id: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9._:-]{2,63}$" },
  client_name: { type: "string", maxLength: 500 },
  description: { type: "string" },
  application_type: { enum: ["web", "native"] },
  redirect_uris: uris,
  post_logout_redirect_uris: uris,
  grant_types: { type: "array", items: { type: "string" } },
  response_types: { type: "array", items: { type: "string" } },
  token_endpoint_auth_method: {
    enum: ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"],
  },
  scope: { type: "string", description: "Space-separated; manage.* scopes are for backend clients only" },
  allowed_resources: uris,
  allowed_cors_origins: { type: "array", items: { type: "string" } },
  offline_access: { type: "boolean" },
  company_id: { type: "string", pattern: "^[A-Za-z0-9._-]{1,64}$" },
  jwks_uri: { type: "string", format: "uri" },
  jwks: { type: "object" },
};

const SECRET = {
  type: "object",
  required: ["id", "description", "status", "created_at", "expires_at", "disabled_at", "last_used_at"],
  additionalProperties: false,
  properties: {
    id: { type: "string" },
    description: { type: ["string", "null"] },
    status: { enum: ["active", "disabled", "expired"] },
    created_at: dateTime,
    expires_at: nullableDateTime,
    disabled_at: nullableDateTime,
    last_used_at: nullableDateTime,
  },
};

const RECORD_PROPERTIES = {
  ...METADATA_PROPERTIES,
  client_kind: { enum: ["browser", "native", "web", "backend"] },
  created_at: dateTime,
  status: { enum: ["approved", "pending", "rejected"] },
  owner_company_id: { type: "string" },
  pending_changes: { type: "object", description: "A software vendor's change waiting for the operator's review" },
  review_note: { type: "string" },
};

const RECORD_REQUIRED = ["client_id", "client_kind", "created_at", "status", "grant_types", "scope"];

export const CLIENT_SCHEMAS = {
  ClientMetadata: {
    type: "object",
    description:
      "RFC 7591 client metadata as `clients add` takes it; client_name#de and description#de give a language's " +
      "text. Unknown fields are refused. In a change, client_id may be left out; the fields a Client adds " +
      "(client_kind, status, secrets …) may be sent back and are ignored.",
    properties: METADATA_PROPERTIES,
  },
  ClientSummary: {
    type: "object",
    description: "A client as listed: its metadata, kind and standing (its secrets are on the client itself).",
    required: RECORD_REQUIRED,
    properties: RECORD_PROPERTIES,
  },
  Client: {
    type: "object",
    description: "A client with its metadata, kind, standing and secrets (ids and dates; never a secret's value).",
    required: [...RECORD_REQUIRED, "secrets"],
    properties: { ...RECORD_PROPERTIES, secrets: { type: "array", items: SECRET } },
  },
  RegisteredClient: {
    type: "object",
    description: "The client registered; a confidential one's first secret is shown this once.",
    required: [...RECORD_REQUIRED, "secrets"],
    properties: {
      ...RECORD_PROPERTIES,
      secrets: { type: "array", items: SECRET },
      client_secret: { type: "string" },
      client_secret_id: { type: "string" },
      client_secret_expires_at: { const: 0 },
    },
  },
  ClientReview: {
    type: "object",
    additionalProperties: false,
    required: ["reason"],
    properties: { reason: { type: "string", minLength: 1, maxLength: 1000, description: "The vendor reads it" } },
  },
  NewSecretRequest: {
    type: "object",
    additionalProperties: false,
    properties: {
      expires_at: {
        type: "string",
        description: "A date-time, or a day (YYYY-MM-DD: its end, UTC), in the future",
      },
      description: { type: "string", maxLength: 200 },
    },
  },
  NewClientSecret: {
    type: "object",
    description: "The new secret, shown this once (OptiGate keeps only its hash).",
    additionalProperties: false,
    required: ["client_id", "secret_id", "client_secret", "expires_at"],
    properties: {
      client_id: { type: "string" },
      secret_id: { type: "string" },
      client_secret: { type: "string" },
      expires_at: nullableDateTime,
    },
  },
  SecretExpiry: {
    type: "object",
    additionalProperties: false,
    required: ["expires_at"],
    properties: {
      expires_at: { type: ["string", "null"], description: "A date-time or a day (its end, UTC); null: never" },
    },
  },
};
