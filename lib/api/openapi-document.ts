/**
 * The OpenAPI 3.1 description of the platform API v2: served at GET /v2/openapi.json, and the schema every API
 * response in the tests is validated against. Its paths are generated from the API's routes (api-routes.ts); its
 * servers entry is API_URL; its scopes carry the configured prefix; it names the audiences the API accepts and
 * OptiGate's other resource server (RFC 8707).
 */
import { ENDPOINTS } from "@/lib/http/paths";
import type { ApiRoute } from "@/lib/api/api-routes";
import { ref, SCHEMAS } from "@/lib/api/openapi-schemas";
import { PROBLEM_TYPES, type ProblemType } from "@/lib/errors/api-problem";
import { catalogServicesResource, defaultAudience } from "@/lib/oauth/resource-indicators";

/** The document's paths, from the API's routes: each route's operation, secured by any one of its scopes. */
function pathsOf(routes: readonly ApiRoute[], scope: (name: string) => string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes)
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      ...route.operation,
      security: route.scopes.map((name) => ({ oauth2: [scope(name)] })),
    };
  return paths;
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
        authorizationUrl: `${publicUrl}${ENDPOINTS.authorize}`,
        tokenUrl: `${publicUrl}${ENDPOINTS.token}`,
        scopes,
      },
      clientCredentials: { tokenUrl: `${publicUrl}${ENDPOINTS.token}`, scopes },
    },
  };
}

export function openApiDocument(
  config: { apiUrl: string; publicUrl: string; apiScopePrefix: string },
  routes: readonly ApiRoute[],
) {
  const { apiUrl, publicUrl, apiScopePrefix: scopePrefix } = config;
  const scope = (name: string) => `${scopePrefix}.${name}`;
  return {
    openapi: "3.1.0",
    info: {
      title: "OptiGate platform API",
      version: "2.0.0",
      description:
        "Catalogs and supplier registrations of the optics trade platform. Every call but this document needs an " +
        `access token issued by OptiGate for this API: requested with resource=${apiUrl} (RFC 8707), its audience is ` +
        `${apiUrl}; requested without a resource, ${defaultAudience(publicUrl)}. A token for another resource ` +
        `server is refused, such as one for the catalog services (${catalogServicesResource(config)}).`,
    },
    servers: [{ url: apiUrl }],
    paths: pathsOf(routes, scope),
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
