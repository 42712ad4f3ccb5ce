/**
 * The OpenAPI 3.1 description of the platform API v2, written once: served at GET /v2/openapi.json, and the schema
 * every API response in the tests is validated against. Its servers entry is API_URL; its scopes carry the
 * configured prefix.
 */
import {
  cursorParameter,
  etagHeader,
  json,
  limitParameter,
  pathParameter,
  problems,
  ref,
  SCHEMAS,
  text,
} from "@/lib/api/openapi-schemas";
import { PROBLEM_TYPES, type ProblemType } from "@/lib/api/problem";
import { MAX_ARTICLE_PAGE, MAX_CATALOG_PAGE } from "@/lib/api/catalog-routes";
import { MAX_REGISTRATION_PAGE } from "@/lib/api/registration-routes";
import { REGISTRATION_STATUSES } from "@/lib/registrations/registration-rules";

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
