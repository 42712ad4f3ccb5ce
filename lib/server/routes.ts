/**
 * The route table: every endpoint of OptiGate declared once, with its path, its methods and handlers, whether the lean
 * Node front serves it ahead of Next.js, whether browser apps may call it (CORS), and for the platform API its own
 * routes with their scopes. Everything else is derived from it: the route files under app/ export `ROUTES[path]`, the
 * lean front (lib/server/fast-front.ts) serves the entries marked `fast`, and the OpenAPI document's paths come from
 * the API's routes. tests/integration/server/route-table.test.ts fails when a route file or the front disagrees.
 *
 * The endpoints clients call at volume (token, revocation, introspection) are written as ProtocolHandlers
 * (lib/http/protocol-message.ts): adapted to Request and Response for Next.js, handed to the lean front as they are.
 */
import type { ApiRoute } from "@/lib/api/api-routes";
import { ENDPOINTS } from "@/lib/http/paths";
import { PAGE_FORM_ROUTES } from "@/lib/server/page-form-routes";
import { platformApi } from "@/lib/api/v2-api";
import { withCors, withProtocolCors } from "@/lib/oauth/cors";
import { fromModule, loadOnce } from "@/lib/server/on-demand";
import { guardedHandler, guardedProtocolHandler, type Handler } from "@/lib/server/guarded-handler";
import {
  webHandler,
  type ProtocolHandler,
  type ProtocolRequest,
  type ProtocolResponse,
} from "@/lib/http/protocol-message";
import { getServiceContext, type ServiceContext } from "@/lib/service-context";

export type { Handler };

export const METHODS = ["GET", "HEAD", "POST", "PATCH", "PUT", "DELETE", "OPTIONS"] as const;
export type Method = (typeof METHODS)[number];

type Endpoint = (request: Request, context: ServiceContext) => Promise<Response>;
type ProtocolEndpoint = (request: ProtocolRequest, context: ServiceContext) => Promise<ProtocolResponse>;

export interface RouteSpec {
  /** Handlers by method, each given the service context of this process. */
  web?: Partial<Record<Exclude<Method, "OPTIONS">, Endpoint>>;
  /** A POST endpoint written as a ProtocolHandler. */
  protocol?: ProtocolEndpoint;
  /** The platform API: one router for every path and method under the entry's path, with these routes. */
  api?: () => Promise<readonly ApiRoute[]>;
  /** Served by the lean Node front too, ahead of Next.js. */
  fast?: true;
  /** Browser apps of registered origins may call it: CORS headers on the answer, and an OPTIONS preflight. */
  cors?: true;
}

const API_METHODS = ["GET", "HEAD", "POST", "PATCH", "PUT", "DELETE"] as const;

/** The methods a spec answers, as the route file exports them. */
type MethodsOf<Spec> =
  | (Spec extends { web: infer Web } ? keyof Web : never)
  | (Spec extends { protocol: ProtocolEndpoint } ? "POST" : never)
  | (Spec extends { api: unknown } ? (typeof API_METHODS)[number] : never)
  | (Spec extends { cors: true } ? "OPTIONS" : never);

/** The modules of the endpoints, each loaded at its first call (lib/server/on-demand.ts). */
const manageModule = () => import("@/lib/api/manage/manage-routes");
const authorizeModule = () => import("@/lib/oauth/authorize/authorize-endpoint");
const userinfoModule = () => import("@/lib/oauth/userinfo-endpoint");
const endSessionModule = () => import("@/lib/oauth/endsession/end-session-endpoint");
const registrationModule = () => import("@/lib/server/client-registration-endpoint");
const probesModule = () => import("@/lib/server/health-probes");
const cronModule = () => import("@/lib/server/cron-endpoints");

/** One handler for GET and POST (OpenID Connect lets clients send these requests either way). */
const getOrPost = <Handle>(handle: Handle) => ({ GET: handle, POST: handle });

export const ROUTE_TABLE = {
  [ENDPOINTS.authorize]: { web: getOrPost(fromModule(authorizeModule, "handleAuthorizeRequest")) },
  [ENDPOINTS.token]: {
    protocol: fromModule(() => import("@/lib/oauth/token/token-endpoint"), "handleTokenRequest"),
    fast: true,
    cors: true,
  },
  [ENDPOINTS.par]: {
    protocol: fromModule(() => import("@/lib/oauth/authorize/par-endpoint"), "handlePushedAuthorizationRequest"),
    fast: true,
    cors: true,
  },
  [ENDPOINTS.deviceAuthorization]: {
    protocol: fromModule(
      () => import("@/lib/oauth/device/device-authorization-endpoint"),
      "handleDeviceAuthorizationRequest",
    ),
    fast: true,
  },
  [ENDPOINTS.revocation]: {
    protocol: fromModule(() => import("@/lib/oauth/revocation-endpoint"), "handleRevocationRequest"),
    fast: true,
    cors: true,
  },
  [ENDPOINTS.userinfo]: {
    web: {
      GET: fromModule(userinfoModule, "handleUserinfoRequest"),
      POST: fromModule(userinfoModule, "handleUserinfoRequest"),
    },
    cors: true,
  },
  [ENDPOINTS.introspect]: {
    protocol: fromModule(() => import("@/lib/oauth/introspection-endpoint"), "handleIntrospectionRequest"),
    fast: true,
  },
  [ENDPOINTS.endSession]: { web: getOrPost(fromModule(endSessionModule, "handleEndSessionRequest")) },
  [ENDPOINTS.register]: {
    web: {
      POST: fromModule(registrationModule, "handleClientRegistration"),
      GET: fromModule(registrationModule, "handleClientConfiguration"),
      PUT: fromModule(registrationModule, "handleClientConfiguration"),
      DELETE: fromModule(registrationModule, "handleClientConfiguration"),
    },
  },
  [ENDPOINTS.registerSecrets]: { web: { POST: fromModule(registrationModule, "handleClientSecretCreation") } },
  [ENDPOINTS.discovery]: {
    web: { GET: fromModule(() => import("@/lib/oauth/discovery"), "handleDiscoveryRequest") },
    fast: true,
    cors: true,
  },
  [ENDPOINTS.jwks]: {
    web: { GET: fromModule(() => import("@/lib/oauth/keys/jwks-endpoint"), "handleJwksRequest") },
    fast: true,
    cors: true,
  },
  [ENDPOINTS.catalogInfos]: {
    web: { GET: fromModule(() => import("@/lib/catalog/catalog-infos-endpoint"), "handleCatalogInfosRequest") },
    fast: true,
  },
  [ENDPOINTS.subCatalog]: {
    web: { GET: fromModule(() => import("@/lib/catalog/sub-catalog-endpoint"), "handleSubCatalogRequest") },
    fast: true,
  },
  [ENDPOINTS.silentLogin]: {
    web: { POST: fromModule(() => import("@/lib/catalog/silent-login"), "handleSilentLogin") },
  },
  ...PAGE_FORM_ROUTES,
  [ENDPOINTS.health]: { web: { GET: fromModule(() => import("@/lib/server/check-health"), "handleHealthRequest") } },
  [ENDPOINTS.healthLive]: { web: { GET: fromModule(probesModule, "handleLiveRequest") }, fast: true },
  [ENDPOINTS.healthReady]: { web: { GET: fromModule(probesModule, "handleReadyRequest") }, fast: true },
  [ENDPOINTS.cronPurge]: {
    web: { GET: fromModule(cronModule, "handleCronPurge"), POST: fromModule(cronModule, "handleCronPurge") },
  },
  [ENDPOINTS.cronOutbox]: {
    web: { GET: fromModule(cronModule, "handleCronOutbox"), POST: fromModule(cronModule, "handleCronOutbox") },
  },
  [ENDPOINTS.metrics]: {
    web: { GET: fromModule(() => import("@/lib/server/metrics-endpoint"), "handleMetricsRequest") },
  },
  [ENDPOINTS.apiReferenceScript]: {
    web: { GET: fromModule(() => import("@/lib/server/api-reference-script"), "handleApiReferenceScript") },
  },
  // The management API routes every path and method under /manage/v1/ itself, with its own 404 and 405.
  [ENDPOINTS.manageApi]: {
    web: {
      GET: fromModule(manageModule, "handleManageRequest"),
      POST: fromModule(manageModule, "handleManageRequest"),
      PUT: fromModule(manageModule, "handleManageRequest"),
      PATCH: fromModule(manageModule, "handleManageRequest"),
      DELETE: fromModule(manageModule, "handleManageRequest"),
    },
  },
  // The platform API routes every path and method under /v2/ itself, with its own 404, 405 and CORS methods.
  [ENDPOINTS.platformApi]: {
    api: async () => (await import("@/lib/api/api-routes")).API_ROUTES,
    fast: true,
    cors: true,
  },
} as const satisfies Record<string, RouteSpec>;

export type RoutePath = keyof typeof ROUTE_TABLE;
type RouteHandlers = { [Path in RoutePath]: Record<MethodsOf<(typeof ROUTE_TABLE)[Path]>, Handler> };

/** The clients of the process's database, whose registered origins CORS allows. */
const clientStore = () => getServiceContext().stores.clients;

const inContext =
  (handle: ProtocolEndpoint): ProtocolHandler =>
  (request) =>
    handle(request, getServiceContext());

/** The guarded Next.js handlers of one entry, and for a protocol endpoint its guarded ProtocolHandler. */
function handlersOf(spec: RouteSpec): { web: Partial<Record<Method, Handler>>; protocol?: ProtocolHandler } {
  if (spec.api) {
    const routes = spec.api;
    const api = loadOnce(async () => platformApi(getServiceContext, await routes()));
    const handle = guardedHandler(async (request) => (await api()).handle(request));
    return {
      web: {
        ...Object.fromEntries(API_METHODS.map((method) => [method, handle])),
        OPTIONS: guardedHandler(async (request) => (await api()).preflight(request)),
      },
    };
  }
  const web: Partial<Record<Method, Handler>> = {};
  for (const [method, endpoint] of Object.entries(spec.web ?? {}))
    web[method as Method] = (request) => endpoint(request, getServiceContext());
  let protocol: ProtocolHandler | undefined;
  if (spec.protocol) {
    const inner = inContext(spec.protocol);
    // CORS headers go on the plain answer, before it becomes a Response, for Next.js as for the lean front.
    protocol = spec.cors ? withProtocolCors(clientStore, inner) : inner;
    web.POST = webHandler(protocol);
  }
  if (spec.cors) {
    // Each method keeps its own handler: Next.js answers HEAD with the GET handler, so a request's method may be
    // one the entry does not declare.
    const methods = Object.keys(web);
    for (const method of methods) {
      const { handle, preflight } = withCors(clientStore, methods, web[method as Method]!);
      if (!(method === "POST" && protocol)) web[method as Method] = handle;
      web.OPTIONS = preflight;
    }
  }
  const guarded = Object.fromEntries(Object.entries(web).map(([method, handler]) => [method, guardedHandler(handler)]));
  return { web: guarded, protocol: protocol && guardedProtocolHandler(protocol) };
}

const BUILT = Object.fromEntries(Object.entries(ROUTE_TABLE).map(([path, spec]) => [path, handlersOf(spec)])) as Record<
  RoutePath,
  ReturnType<typeof handlersOf>
>;

/** The Next.js handlers by path and method: what the route files export. */
export const ROUTES = Object.fromEntries(
  Object.entries(BUILT).map(([path, built]) => [path, built.web]),
) as unknown as RouteHandlers;

/** The protocol endpoints as ProtocolHandlers, for the lean front. */
export const PROTOCOL_ROUTES = Object.fromEntries(
  Object.entries(BUILT).flatMap(([path, built]) => (built.protocol ? [[path, built.protocol]] : [])),
) as Partial<Record<RoutePath, ProtocolHandler>>;
