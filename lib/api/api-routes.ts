/**
 * The platform API's routes, each declared once: method, path (as the OpenAPI document writes it), the scopes of
 * which any one suffices, the handler, and its OpenAPI operation. The router (v2-api.ts) matches requests against
 * them and the OpenAPI document's paths are generated from them (openapi-document.ts).
 */
import type { ApiHandler } from "@/lib/api/api-call";
import {
  articlesRoute,
  catalogDetailRoute,
  listCatalogsRoute,
  MAX_ARTICLE_PAGE,
  MAX_CATALOG_PAGE,
} from "@/lib/api/catalog-routes";
import { openApiRoute } from "@/lib/api/openapi-route";
import {
  cursorParameter,
  downloadHeaders,
  etagHeader,
  json,
  limitParameter,
  pathParameter,
  problems,
  ref,
  text,
} from "@/lib/api/openapi-schemas";
import {
  changeRegistrationRoute,
  getRegistrationRoute,
  listRegistrationsRoute,
  MAX_REGISTRATION_PAGE,
  requestRegistrationRoute,
} from "@/lib/api/registration-routes";
import { REGISTRATION_STATUSES } from "@/lib/catalog/registrations/registration-rules";

export interface ApiRoute {
  method: "GET" | "POST" | "PATCH";
  /** From /v2/ on; `{name}` is a path parameter. */
  path: string;
  /** Any one of these scopes (without the configured prefix) suffices; none: no token needed. */
  scopes: readonly string[];
  handle: ApiHandler;
  /** The OpenAPI operation, without `security`, which the document derives from `scopes`. */
  operation: Record<string, unknown>;
}

const ids = [pathParameter("supplierId"), pathParameter("catalogId")];
const registrationId = pathParameter("id");
const common = problems("invalid-token", "insufficient-scope", "server-error", "service-unavailable");
const READ_REGISTRATIONS = ["supplierreg.read", "supplierreg.readwrite"];
const bodyProblems = ["payload-too-large", "unsupported-media-type", "unprocessable"] as const;

export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: "GET",
    path: "/v2/openapi.json",
    scopes: [],
    handle: (call) => openApiRoute(call, API_ROUTES),
    operation: {
      operationId: "getOpenApi",
      summary: "This document",
      responses: { "200": { description: "The OpenAPI document", content: json({ type: "object" }) } },
    },
  },
  {
    method: "GET",
    path: "/v2/catalogs",
    scopes: ["catalogs.read"],
    handle: listCatalogsRoute,
    operation: {
      operationId: "listCatalogs",
      summary: "The published catalogs, in the order of supplier and catalog identifier",
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
  {
    method: "GET",
    path: "/v2/catalogs/{supplierId}/{catalogId}",
    scopes: ["catalogs.read"],
    handle: catalogDetailRoute,
    operation: {
      operationId: "getCatalog",
      parameters: ids,
      responses: {
        "200": { description: "The catalog and its revisions", content: json(ref("CatalogDetail")) },
        ...problems("bad-request", "not-found"),
        ...common,
      },
    },
  },
  {
    method: "GET",
    path: "/v2/catalogs/{supplierId}/{catalogId}/revisions/{revision}/articles",
    scopes: ["catalogs.read"],
    handle: articlesRoute,
    operation: {
      operationId: "listArticles",
      summary: "A revision's articles as the caller may see them (the getSubCatalog rules)",
      parameters: [
        ...ids,
        pathParameter("revision", { type: "string", pattern: "^[0-9]+$" }),
        limitParameter(MAX_ARTICLE_PAGE, 1000),
        cursorParameter,
      ],
      responses: {
        "200": {
          description:
            "A page of articles, or with Accept: application/xml the whole sub-catalog document (docs/subcatalog-format.md); gzip or br by Accept-Encoding",
          headers: downloadHeaders,
          content: { ...json(ref("ArticlePage")), "application/xml": { schema: { type: "string" } } },
        },
        "206": {
          description: "The one byte range of the plain (uncompressed) body that Range asked for",
          headers: { ...downloadHeaders, "Content-Range": { schema: { type: "string" } } },
          content: {
            "application/json": { schema: { type: "string" } },
            "application/xml": { schema: { type: "string" } },
          },
        },
        "304": { description: "Not modified: the copy named by If-None-Match or If-Modified-Since is current" },
        ...problems("bad-request", "forbidden", "not-found", "not-acceptable", "range-not-satisfiable"),
        ...common,
      },
    },
  },
  {
    method: "GET",
    path: "/v2/supplierregistrations",
    scopes: READ_REGISTRATIONS,
    handle: listRegistrationsRoute,
    operation: {
      operationId: "listRegistrations",
      summary: "The registrations of the caller's company (an optician's own, or those at a supplier), newest first",
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
  },
  {
    method: "POST",
    path: "/v2/supplierregistrations",
    scopes: ["supplierreg.readwrite"],
    handle: requestRegistrationRoute,
    operation: {
      operationId: "requestRegistration",
      summary: "An optician's company asks a supplier to register it as a customer",
      requestBody: { required: true, content: json(ref("RegistrationRequest")) },
      responses: {
        "201": {
          description: "Requested",
          headers: { ...etagHeader, Location: { schema: { type: "string", format: "uri" } } },
          content: json(ref("Registration")),
        },
        ...problems("bad-request", "forbidden", "conflict", ...bodyProblems),
        ...common,
      },
    },
  },
  {
    method: "GET",
    path: "/v2/supplierregistrations/{id}",
    scopes: READ_REGISTRATIONS,
    handle: getRegistrationRoute,
    operation: {
      operationId: "getRegistration",
      parameters: [registrationId],
      responses: {
        "200": { description: "The registration", headers: etagHeader, content: json(ref("Registration")) },
        ...problems("bad-request", "forbidden", "not-found"),
        ...common,
      },
    },
  },
  {
    method: "PATCH",
    path: "/v2/supplierregistrations/{id}",
    scopes: ["supplierreg.readwrite"],
    handle: changeRegistrationRoute,
    operation: {
      operationId: "changeRegistration",
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
          ...bodyProblems,
          "precondition-required",
        ),
        ...common,
      },
    },
  },
];
