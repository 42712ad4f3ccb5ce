/**
 * The OpenAPI 3.1 description of the platform API v2, written once: served at GET /v2/openapi.json, and the schema
 * every API response in the tests is validated against. Its servers entry is API_URL; its scopes carry the
 * configured prefix.
 */
import { MAX_ARTICLE_PAGE, MAX_CATALOG_PAGE } from "@/lib/api/catalog-routes";
import { PROBLEM_TYPES, problemTypeUri, type ProblemType } from "@/lib/api/problem";
import { MAX_REGISTRATION_PAGE } from "@/lib/api/registration-routes";
import {
  MAX_CLIENT_ID_LENGTH,
  MAX_CUSTOMER_GROUP,
  MAX_CUSTOMER_GROUPS,
  MAX_SUBSCRIPTIONS,
  REGISTRATION_STATUSES,
  SUBSCRIPTION_STATUSES,
} from "@/lib/registrations/registration-rules";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ "application/json": { schema } });
const problems = (...types: ProblemType[]) =>
  Object.fromEntries(types.map((type) => [String(PROBLEM_TYPES[type][0]), { $ref: `#/components/responses/${type}` }]));
const nullable = (schema: object) => ({ oneOf: [schema, { type: "null" }] });
const text = (maxLength = 200) => ({ type: "string", maxLength });
const cursorParameter = {
  name: "cursor",
  in: "query",
  description: "The `next` of the previous page, as it came.",
  schema: text(1024),
};
const limitParameter = (max: number, byDefault: number) => ({
  name: "limit",
  in: "query",
  schema: { type: "integer", minimum: 1, maximum: max, default: byDefault },
});
const pathParameter = (name: string, schema: object = text()) => ({ name, in: "path", required: true, schema });
const etagHeader = {
  ETag: {
    description: "The registration's version; send it back in If-Match to change it.",
    schema: { type: "string" },
  },
};
const page = (item: string) => ({
  type: "object",
  required: ["items", "next"],
  additionalProperties: false,
  properties: { items: { type: "array", items: ref(item) }, next: nullable({ type: "string" }) },
});

const CATALOG = {
  type: "object",
  required: [
    "supplierId",
    "companyId",
    "supplierName",
    "catalogId",
    "resourceKey",
    "name",
    "language",
    "validCountries",
    "productGroups",
    "latestRevision",
    "registration",
  ],
  additionalProperties: false,
  properties: {
    supplierId: { type: "string" },
    companyId: { type: "string" },
    supplierName: { type: "string" },
    catalogId: { type: "string" },
    resourceKey: { type: "string" },
    name: { type: "string" },
    language: { type: "string" },
    validCountries: { type: "array", items: { type: "string", pattern: "^[A-Z]{2}$" } },
    productGroups: { type: "array", items: { type: "string" } },
    latestRevision: {
      type: "object",
      required: ["number", "releasedAt"],
      additionalProperties: false,
      properties: { number: { type: "integer", minimum: 0 }, releasedAt: { type: "string", format: "date-time" } },
    },
    registration: {
      description: "The caller's company's active registration at the supplier, or null.",
      oneOf: [
        {
          type: "object",
          required: ["clientId", "subscriptionStatus"],
          additionalProperties: false,
          properties: { clientId: { type: "string" }, subscriptionStatus: { enum: [...SUBSCRIPTION_STATUSES] } },
        },
        { type: "null" },
      ],
    },
  },
};

const SCHEMAS = {
  Catalog: CATALOG,
  Problem: {
    type: "object",
    description: "RFC 9457 problem details.",
    required: ["type", "title", "status", "detail"],
    additionalProperties: false,
    properties: {
      type: { type: "string", enum: (Object.keys(PROBLEM_TYPES) as ProblemType[]).map(problemTypeUri) },
      title: { type: "string" },
      status: { type: "integer", minimum: 400, maximum: 599 },
      detail: { type: "string" },
    },
  },
  CatalogDetail: {
    type: "object",
    required: [...CATALOG.required, "revisions"],
    additionalProperties: false,
    properties: {
      ...CATALOG.properties,
      revisions: {
        type: "array",
        description:
          "Released revisions; the supplier's own users also see the complete ones that are not released (released false).",
        items: {
          type: "object",
          required: ["number", "releasedAt", "comment", "released"],
          additionalProperties: false,
          properties: {
            number: { type: "integer", minimum: 0 },
            releasedAt: nullable({ type: "string", format: "date-time" }),
            comment: { type: "string" },
            released: { type: "boolean" },
          },
        },
      },
    },
  },
  CatalogPage: page("Catalog"),
  Article: {
    type: "object",
    required: [
      "articleNumber",
      "customerGroup",
      "whiteLabel",
      "name",
      "purchasePrice",
      "retailPrice",
      "startDate",
      "endDate",
    ],
    additionalProperties: false,
    properties: {
      articleNumber: { type: "string" },
      customerGroup: { type: "integer", minimum: 0 },
      whiteLabel: { type: "boolean" },
      name: {
        type: "string",
        description: "For white-label articles the customer's own name, where the supplier gave one.",
      },
      purchasePrice: { type: "number", description: "EUR; 0 for callers without a company." },
      retailPrice: nullable({ type: "number" }),
      startDate: nullable({ type: "string", format: "date" }),
      endDate: nullable({ type: "string", format: "date" }),
    },
  },
  ArticlePage: page("Article"),
  Registration: {
    type: "object",
    required: [
      "id",
      "opticianCompanyId",
      "opticianName",
      "supplierId",
      "supplierName",
      "clientId",
      "status",
      "customerGroups",
      "subscriptions",
      "createdAt",
      "updatedAt",
    ],
    additionalProperties: false,
    properties: {
      id: { type: "string" },
      opticianCompanyId: { type: "string" },
      opticianName: { type: "string" },
      supplierId: { type: "string" },
      supplierName: { type: "string" },
      clientId: { type: "string", description: "The customer number at the supplier." },
      status: { enum: [...REGISTRATION_STATUSES] },
      customerGroups: { type: "array", items: { type: "integer", minimum: 1, maximum: MAX_CUSTOMER_GROUP } },
      subscriptions: { type: "array", items: ref("Subscription") },
      createdAt: { type: "string", format: "date-time" },
      updatedAt: { type: "string", format: "date-time" },
    },
  },
  Subscription: {
    type: "object",
    required: ["catalogId", "status"],
    additionalProperties: false,
    properties: { catalogId: { type: "string" }, status: { enum: [...SUBSCRIPTION_STATUSES] } },
  },
  RegistrationPage: page("Registration"),
  RegistrationRequest: {
    type: "object",
    required: ["supplierId", "clientId"],
    additionalProperties: false,
    properties: {
      supplierId: { type: "string" },
      clientId: { type: "string", minLength: 1, maxLength: MAX_CLIENT_ID_LENGTH },
      catalogs: {
        type: "array",
        maxItems: MAX_SUBSCRIPTIONS,
        items: { type: "string" },
        description: "Catalog identifiers to subscribe to.",
      },
    },
  },
  RegistrationChange: {
    description:
      "The supplier approves (active, with customer groups), rejects, or ends an active registration (withdrawn); the optician withdraws or changes subscriptions.",
    oneOf: [
      {
        type: "object",
        required: ["status"],
        additionalProperties: false,
        properties: {
          status: { const: "active" },
          customerGroups: {
            type: "array",
            maxItems: MAX_CUSTOMER_GROUPS,
            items: { type: "integer", minimum: 1, maximum: MAX_CUSTOMER_GROUP },
          },
        },
      },
      {
        type: "object",
        required: ["status"],
        additionalProperties: false,
        properties: { status: { enum: ["rejected", "withdrawn"] } },
      },
      {
        type: "object",
        required: ["subscriptions"],
        additionalProperties: false,
        properties: { subscriptions: { type: "array", maxItems: MAX_SUBSCRIPTIONS, items: ref("Subscription") } },
      },
    ],
  },
};

type Secured = (...scopes: string[]) => { oauth2: string[] }[];

const ids = [pathParameter("supplierId"), pathParameter("catalogId")];
const registrationId = pathParameter("id");
const common = problems("invalid-token", "insufficient-scope", "server-error", "service-unavailable");

function catalogPaths(secured: Secured) {
  return {
    "/v2/catalogs": {
      get: {
        operationId: "listCatalogs",
        summary: "The published catalogs, in the order of supplier and catalog identifier",
        security: secured("catalogs.read"),
        parameters: [
          { name: "validCountry", in: "query", schema: { type: "string", pattern: "^[A-Za-z]{2}$" } },
          { name: "productGroup", in: "query", schema: text(100) },
          { name: "supplierId", in: "query", schema: text(100) },
          limitParameter(MAX_CATALOG_PAGE, 100),
          cursorParameter,
        ],
        responses: {
          "200": { description: "A page of catalogs", content: json(ref("CatalogPage")) },
          ...problems("bad-request"),
          ...common,
        },
      },
    },
    "/v2/catalogs/{supplierId}/{catalogId}": {
      get: {
        operationId: "getCatalog",
        security: secured("catalogs.read"),
        parameters: ids,
        responses: {
          "200": { description: "The catalog and its revisions", content: json(ref("CatalogDetail")) },
          ...problems("bad-request", "not-found"),
          ...common,
        },
      },
    },
    "/v2/catalogs/{supplierId}/{catalogId}/revisions/{revision}/articles": {
      get: {
        operationId: "listArticles",
        summary: "A revision's articles as the caller may see them (the getSubCatalog rules)",
        security: secured("catalogs.read"),
        parameters: [
          ...ids,
          pathParameter("revision", { type: "string", pattern: "^[0-9]+$" }),
          limitParameter(MAX_ARTICLE_PAGE, 1000),
          cursorParameter,
        ],
        responses: {
          "200": {
            description:
              "A page of articles, or with Accept: application/xml the whole sub-catalog document (docs/subcatalog-format.md)",
            content: { ...json(ref("ArticlePage")), "application/xml": { schema: { type: "string" } } },
          },
          ...problems("bad-request", "forbidden", "not-found"),
          ...common,
        },
      },
    },
  };
}

function registrationPaths(secured: Secured) {
  return {
    "/v2/supplierregistrations": {
      get: {
        operationId: "listRegistrations",
        summary: "The registrations of the caller's company (an optician's own, or those at a supplier), newest first",
        security: secured("supplierreg.read", "supplierreg.readwrite"),
        parameters: [
          { name: "status", in: "query", schema: { enum: [...REGISTRATION_STATUSES] } },
          limitParameter(MAX_REGISTRATION_PAGE, 100),
          cursorParameter,
        ],
        responses: {
          "200": { description: "A page of registrations", content: json(ref("RegistrationPage")) },
          ...problems("bad-request", "forbidden"),
          ...common,
        },
      },
      post: {
        operationId: "requestRegistration",
        summary: "An optician's company asks a supplier to register it as a customer",
        security: secured("supplierreg.readwrite"),
        requestBody: { required: true, content: json(ref("RegistrationRequest")) },
        responses: {
          "201": {
            description: "Requested",
            headers: { ...etagHeader, Location: { schema: { type: "string", format: "uri" } } },
            content: json(ref("Registration")),
          },
          ...problems(
            "bad-request",
            "forbidden",
            "conflict",
            "payload-too-large",
            "unsupported-media-type",
            "unprocessable",
          ),
          ...common,
        },
      },
    },
    "/v2/supplierregistrations/{id}": {
      get: {
        operationId: "getRegistration",
        security: secured("supplierreg.read", "supplierreg.readwrite"),
        parameters: [registrationId],
        responses: {
          "200": { description: "The registration", headers: etagHeader, content: json(ref("Registration")) },
          ...problems("bad-request", "forbidden", "not-found"),
          ...common,
        },
      },
      patch: {
        operationId: "changeRegistration",
        security: secured("supplierreg.readwrite"),
        parameters: [registrationId, { name: "If-Match", in: "header", required: true, schema: { type: "string" } }],
        requestBody: {
          required: true,
          content: {
            ...json(ref("RegistrationChange")),
            "application/merge-patch+json": { schema: ref("RegistrationChange") },
          },
        },
        responses: {
          "200": { description: "Changed", headers: etagHeader, content: json(ref("Registration")) },
          ...problems(
            "bad-request",
            "forbidden",
            "not-found",
            "precondition-failed",
            "payload-too-large",
            "unsupported-media-type",
            "unprocessable",
            "precondition-required",
          ),
          ...common,
        },
      },
    },
  };
}

function oauth2Scheme(publicUrl: string, scope: (name: string) => string) {
  const scopes = {
    [scope("catalogs.read")]: "Read catalogs",
    [scope("supplierreg.read")]: "Read supplier registrations",
    [scope("supplierreg.readwrite")]: "Manage supplier registrations",
  };
  return {
    type: "oauth2",
    description:
      "Access tokens issued by OptiGate; the caller's rights follow the company of its user (or the company the operator gave a backend client).",
    flows: {
      authorizationCode: {
        authorizationUrl: `${publicUrl}/connect/authorize`,
        tokenUrl: `${publicUrl}/connect/token`,
        scopes,
      },
      clientCredentials: { tokenUrl: `${publicUrl}/connect/token`, scopes },
    },
  };
}

export function openApiDocument(config: { apiUrl: string; publicUrl: string; apiScopePrefix: string }) {
  const { apiUrl, publicUrl, apiScopePrefix: scopePrefix } = config;
  const scope = (name: string) => `${scopePrefix}.${name}`;
  const secured: Secured = (...scopes) => scopes.map((name) => ({ oauth2: [scope(name)] }));
  return {
    openapi: "3.1.0",
    info: {
      title: "OptiGate platform API",
      version: "2.0.0",
      description:
        "Catalogs and supplier registrations of the optics trade platform. Every call but this document needs an access token issued by OptiGate (audience PUBLIC_URL/resources).",
    },
    servers: [{ url: apiUrl }],
    paths: {
      "/v2/openapi.json": {
        get: {
          operationId: "getOpenApi",
          summary: "This document",
          security: [],
          responses: { "200": { description: "The OpenAPI document", content: json({ type: "object" }) } },
        },
      },
      ...catalogPaths(secured),
      ...registrationPaths(secured),
    },
    components: {
      schemas: SCHEMAS,
      responses: Object.fromEntries(
        (Object.keys(PROBLEM_TYPES) as ProblemType[]).map((type) => [
          type,
          { description: PROBLEM_TYPES[type][1], content: { "application/problem+json": { schema: ref("Problem") } } },
        ]),
      ),
      securitySchemes: { oauth2: oauth2Scheme(publicUrl, scope) },
    },
  };
}
