/**
 * The OpenAPI 3.1 description of the management API, served at GET /manage/v1/openapi.json: its paths come from the
 * routes (manage-routes.ts), each secured by its operator scopes and, where a company's own client may call it, its
 * company scopes; the schemas from each resource's module. `manageOperation` writes an operation's usual parts the
 * same way for every route.
 */
import { ENDPOINTS } from "@/lib/http/paths";
import { cursorParameter, json, limitParameter, pathParameter, problems, ref, text } from "@/lib/api/openapi-schemas";
import { PROBLEM_TYPES, type ProblemType } from "@/lib/errors/api-problem";
import type { ManageRoute } from "@/lib/api/manage/manage-call";
import { COMPANY_MANAGE_SCOPES, PLATFORM_MANAGE_SCOPES, scopeDefinitions } from "@/lib/oauth/scopes";
import { defaultAudience, managementApiResource } from "@/lib/oauth/resource-indicators";
import messages from "@/messages/en.json";

const COMMON = problems("invalid-token", "insufficient-scope", "forbidden", "server-error", "service-unavailable");
const BODY_PROBLEMS: ProblemType[] = ["bad-request", "payload-too-large", "unsupported-media-type", "unprocessable"];

export const pathId = (name: string) => pathParameter(name, text(200));

/** The problems of a route with a JSON body, and those named. */
export const writeProblems = (...more: ProblemType[]): ProblemType[] => [...BODY_PROBLEMS, ...more];

const etagHeaders = {
  ETag: {
    description: "The resource as it is now; send it back in If-Match to change it.",
    schema: { type: "string" },
  },
};

interface OperationParts {
  operationId: string;
  summary?: string;
  parameters?: object[];
  /** a page of these items, with limit and cursor */
  page?: { item: string; max: number; default: number };
  /** the request body's schema */
  body?: string;
  /** 200 with this schema and an ETag */
  ok?: string;
  /** 201 with this schema, an ETag and a Location */
  created?: string;
  /** 204 without a body */
  noContent?: true;
  /** the route needs If-Match (428, 412) */
  ifMatch?: true;
  notFound?: true;
  problems?: ProblemType[];
}

export function manageOperation(parts: OperationParts): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  if (parts.page)
    responses["200"] = {
      description: "A page; `next` is the cursor of the following page, null on the last",
      content: json({
        type: "object",
        required: ["items", "next"],
        additionalProperties: false,
        properties: { items: { type: "array", items: ref(parts.page.item) }, next: { type: ["string", "null"] } },
      }),
    };
  if (parts.ok) responses["200"] = { description: "The resource", headers: etagHeaders, content: json(ref(parts.ok)) };
  if (parts.created)
    responses["201"] = {
      description: "Created",
      headers: { ...etagHeaders, Location: { schema: { type: "string" } } },
      content: json(ref(parts.created)),
    };
  if (parts.noContent) responses["204"] = { description: "Done" };
  const named: ProblemType[] = [
    "bad-request",
    ...(parts.notFound ? (["not-found"] as const) : []),
    ...(parts.ifMatch ? (["precondition-failed", "precondition-required"] as const) : []),
    ...(parts.problems ?? []),
  ];
  return {
    operationId: parts.operationId,
    ...(parts.summary ? { summary: parts.summary } : {}),
    parameters: [
      ...(parts.parameters ?? []),
      ...(parts.page ? [limitParameter(parts.page.max, parts.page.default), cursorParameter] : []),
      ...(parts.ifMatch ? [{ name: "If-Match", in: "header", required: true, schema: { type: "string" } }] : []),
    ],
    ...(parts.body ? { requestBody: { required: true, content: json(ref(parts.body)) } } : {}),
    responses: { ...responses, ...problems(...new Set(named)), ...COMMON },
  };
}

function pathsOf(routes: readonly ManageRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const scopes = "handle" in route ? [...route.scopes, ...(route.companyScopes ?? [])] : [];
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      ...route.operation,
      security: scopes.map((scope) => ({ oauth2: [scope] })),
    };
  }
  return paths;
}

function oauth2Scheme(publicUrl: string) {
  const texts = messages.Scopes as Record<string, { name: string; description: string }>;
  const scopes = Object.fromEntries(
    scopeDefinitions("")
      .filter((scope) => scope.kind === "manage")
      .map((scope) => [scope.name, texts[scope.textKey].description]),
  );
  return {
    type: "oauth2",
    description:
      `Access tokens of clients acting for themselves. Operators give a client the platform scopes ` +
      `(${PLATFORM_MANAGE_SCOPES[0]} …); a company administrator's own client has the company scopes ` +
      `(${COMPANY_MANAGE_SCOPES[0]} …) and reaches that company alone.`,
    flows: { clientCredentials: { tokenUrl: `${publicUrl}${ENDPOINTS.token}`, scopes } },
  };
}

export function manageOpenApiDocument(
  config: { publicUrl: string; apiUrl: string },
  routes: readonly ManageRoute[],
  schemas: Record<string, unknown>,
) {
  const resource = managementApiResource(config);
  return {
    openapi: "3.1.0",
    info: {
      title: "OptiGate management API",
      version: "1.0.0",
      description:
        "Companies, people, invitations, applications, signing keys, trusted issuers, company sign-in, webhooks, the " +
        "audit trail and the outbox, with the rules of the operator's and company administrators' pages. Every call " +
        `but this document needs an access token from the client_credentials grant: requested with resource=${resource} ` +
        `(RFC 8707), its audience is ${resource}; requested without a resource, ${defaultAudience(config.publicUrl)}.`,
    },
    // The paths carry /manage/v1 themselves.
    servers: [{ url: config.publicUrl }],
    paths: pathsOf(routes),
    components: {
      schemas: {
        Problem: {
          type: "object",
          description: "RFC 9457 problem details.",
          required: ["type", "title", "status", "detail"],
          properties: {
            type: { type: "string" },
            title: { type: "string" },
            status: { type: "integer" },
            detail: { type: "string" },
          },
        },
        ...schemas,
      },
      responses: Object.fromEntries(
        (Object.keys(PROBLEM_TYPES) as ProblemType[]).map((type) => [
          type,
          { description: PROBLEM_TYPES[type][1], content: { "application/problem+json": { schema: ref("Problem") } } },
        ]),
      ),
      securitySchemes: { oauth2: oauth2Scheme(config.publicUrl) },
    },
  };
}
