/** The schemas and building blocks of the platform API's OpenAPI document (openapi-document.ts). */
import { PROBLEM_TYPES, problemTypeUri, type ProblemType } from "@/lib/errors/api-problem";
import {
  MAX_CLIENT_ID_LENGTH,
  MAX_CUSTOMER_GROUP,
  MAX_CUSTOMER_GROUPS,
  MAX_SUBSCRIPTIONS,
  REGISTRATION_STATUSES,
  SUBSCRIPTION_STATUSES,
} from "@/lib/catalog/registrations/registration-rules";

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: object) => ({ "application/json": { schema } });
export const problems = (...types: ProblemType[]) =>
  Object.fromEntries(types.map((type) => [String(PROBLEM_TYPES[type][0]), { $ref: `#/components/responses/${type}` }]));
const nullable = (schema: object) => ({ oneOf: [schema, { type: "null" }] });
export const text = (maxLength = 200) => ({ type: "string", maxLength });
export const cursorParameter = {
  name: "cursor",
  in: "query",
  description: "The `next` of the previous page, as it came.",
  schema: text(1024),
};
export const limitParameter = (max: number, byDefault: number) => ({
  name: "limit",
  in: "query",
  schema: { type: "integer", minimum: 1, maximum: max, default: byDefault },
});
export const pathParameter = (name: string, schema: object = text()) => ({ name, in: "path", required: true, schema });
export const etagHeader = {
  ETag: {
    description: "The registration's version; send it back in If-Match to change it.",
    schema: { type: "string" },
  },
};
/** Validators and caching of a download (docs/catalog-format.md): revalidate with If-None-Match or If-Modified-Since. */
export const downloadHeaders = {
  ETag: { description: "Strong; differs per Content-Encoding", schema: { type: "string" } },
  "Last-Modified": { schema: { type: "string" } },
  Vary: { schema: { type: "string", const: "Accept-Encoding" } },
  "Accept-Ranges": { schema: { type: "string", const: "bytes" } },
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

export const SCHEMAS = {
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
