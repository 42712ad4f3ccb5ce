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
import { API_ROUTES, type ApiRoute } from "@/lib/api/api-routes";
import { ENDPOINTS, FORMS } from "@/lib/http/paths";
import { platformApi } from "@/lib/api/v2-api";
import { handleCatalogInfosRequest } from "@/lib/catalog/catalog-infos-endpoint";
import { handleSilentLogin } from "@/lib/catalog/silent-login";
import { handleSubCatalogRequest } from "@/lib/catalog/sub-catalog-endpoint";
import { handleHealthRequest } from "@/lib/server/check-health";
import { handleLanguageSwitch } from "@/lib/i18n/language-switch";
import { handleAdminSubmission } from "@/lib/forms/admin-submission";
import { handleCatalogSubmission } from "@/lib/forms/catalog-submission";
import { handleConsentSubmission } from "@/lib/forms/consent-submission";
import { handleCompanyRecordSubmission } from "@/lib/forms/company-record-submission";
import { handleCompanySubmission } from "@/lib/forms/company-submission";
import { handleInvitationSubmission } from "@/lib/forms/invitation-submission";
import { handleAccountSubmission } from "@/lib/forms/account-submission";
import { handleSecondFactorSubmission } from "@/lib/forms/second-factor-submission";
import { handlePasskeySubmission } from "@/lib/forms/passkey-submission";
import { handleSecuritySubmission } from "@/lib/forms/security-submission";
import { handleDeveloperSubmission } from "@/lib/forms/developer-submission";
import { handleEmailConfirmSubmission } from "@/lib/forms/email-confirm-submission";
import { handleForgotPasswordSubmission, handleResetPasswordSubmission } from "@/lib/forms/password-submission";
import { handleLoginSubmission } from "@/lib/forms/login-submission";
import { handlePortalSubmission } from "@/lib/forms/portal-submission";
import { handleRegistrationSubmission } from "@/lib/forms/registration-submission";
import { handleSignOutSubmission } from "@/lib/forms/signout-submission";
import { handleAuthorizeRequest } from "@/lib/oauth/authorize/authorize-endpoint";
import { withCors, withProtocolCors } from "@/lib/oauth/cors";
import { handleDiscoveryRequest } from "@/lib/oauth/discovery";
import { handleEndSessionRequest } from "@/lib/oauth/endsession/end-session-endpoint";
import { handleIntrospectionRequest } from "@/lib/oauth/introspection-endpoint";
import { handleJwksRequest } from "@/lib/oauth/keys/jwks-endpoint";
import { handleRevocationRequest } from "@/lib/oauth/revocation-endpoint";
import { handleTokenRequest } from "@/lib/oauth/token/token-endpoint";
import { handlePushedAuthorizationRequest } from "@/lib/oauth/authorize/par-endpoint";
import { handleUserinfoRequest } from "@/lib/oauth/userinfo-endpoint";
import { guardedHandler, guardedProtocolHandler, type Handler } from "@/lib/server/guarded-handler";
import {
  webHandler,
  type ProtocolHandler,
  type ProtocolRequest,
  type ProtocolResponse,
} from "@/lib/http/protocol-message";
import { handleMetricsRequest } from "@/lib/server/metrics-endpoint";
import { handleClientConfiguration, handleClientRegistration } from "@/lib/server/client-registration-endpoint";
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
  api?: readonly ApiRoute[];
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
  | (Spec extends { api: readonly ApiRoute[] } ? (typeof API_METHODS)[number] : never)
  | (Spec extends { cors: true } ? "OPTIONS" : never);

export const ROUTE_TABLE = {
  [ENDPOINTS.authorize]: { web: { GET: handleAuthorizeRequest, POST: handleAuthorizeRequest } },
  [ENDPOINTS.token]: { protocol: handleTokenRequest, fast: true, cors: true },
  [ENDPOINTS.par]: { protocol: handlePushedAuthorizationRequest, fast: true, cors: true },
  [ENDPOINTS.revocation]: { protocol: handleRevocationRequest, fast: true, cors: true },
  [ENDPOINTS.userinfo]: { web: { GET: handleUserinfoRequest, POST: handleUserinfoRequest }, cors: true },
  [ENDPOINTS.introspect]: { protocol: handleIntrospectionRequest, fast: true },
  [ENDPOINTS.endSession]: { web: { GET: handleEndSessionRequest, POST: handleEndSessionRequest } },
  [ENDPOINTS.register]: {
    web: {
      POST: handleClientRegistration,
      GET: handleClientConfiguration,
      PUT: handleClientConfiguration,
      DELETE: handleClientConfiguration,
    },
  },
  [ENDPOINTS.discovery]: { web: { GET: handleDiscoveryRequest }, fast: true, cors: true },
  [ENDPOINTS.jwks]: { web: { GET: handleJwksRequest }, fast: true, cors: true },
  [ENDPOINTS.catalogInfos]: { web: { GET: handleCatalogInfosRequest }, fast: true },
  [ENDPOINTS.subCatalog]: { web: { GET: handleSubCatalogRequest }, fast: true },
  [ENDPOINTS.silentLogin]: { web: { POST: handleSilentLogin } },
  [FORMS.login]: { web: { POST: handleLoginSubmission } },
  [FORMS.consent]: { web: { POST: handleConsentSubmission } },
  [FORMS.signOut]: { web: { POST: handleSignOutSubmission } },
  [FORMS.portal]: { web: { POST: handlePortalSubmission } },
  [FORMS.admin]: { web: { POST: handleAdminSubmission } },
  [FORMS.catalogs]: { web: { POST: handleCatalogSubmission } },
  [FORMS.suppliers]: { web: { POST: handleRegistrationSubmission } },
  [FORMS.invitation]: { web: { POST: handleInvitationSubmission } },
  [FORMS.company]: { web: { POST: handleCompanySubmission } },
  [FORMS.companies]: { web: { POST: handleCompanyRecordSubmission } },
  [FORMS.forgotPassword]: { web: { POST: handleForgotPasswordSubmission } },
  [FORMS.resetPassword]: { web: { POST: handleResetPasswordSubmission } },
  [FORMS.email]: { web: { POST: handleEmailConfirmSubmission } },
  [FORMS.account]: { web: { POST: handleAccountSubmission } },
  [FORMS.developer]: { web: { POST: handleDeveloperSubmission } },
  [FORMS.secondFactor]: { web: { POST: handleSecondFactorSubmission } },
  [FORMS.passkey]: { web: { POST: handlePasskeySubmission } },
  [FORMS.security]: { web: { POST: handleSecuritySubmission } },
  [ENDPOINTS.language]: {
    web: { GET: async (request, { config }) => handleLanguageSwitch(request, config.publicUrl) },
  },
  [ENDPOINTS.health]: { web: { GET: handleHealthRequest } },
  [ENDPOINTS.metrics]: { web: { GET: handleMetricsRequest } },
  // The platform API routes every path and method under /v2/ itself, with its own 404, 405 and CORS methods.
  [ENDPOINTS.platformApi]: { api: API_ROUTES, fast: true, cors: true },
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
    const api = platformApi(getServiceContext, spec.api);
    const handle = guardedHandler(api.handle);
    return {
      web: {
        ...Object.fromEntries(API_METHODS.map((method) => [method, handle])),
        OPTIONS: guardedHandler(api.preflight),
      },
    };
  }
  const web: Partial<Record<Method, Handler>> = {};
  for (const [method, endpoint] of Object.entries(spec.web ?? {}))
    web[method as Method] = (request) => endpoint(request, getServiceContext());
  let protocol: ProtocolHandler | undefined;
  if (spec.protocol) {
    const inner = inContext(spec.protocol);
    web.POST = webHandler(inner);
    protocol = spec.cors ? withProtocolCors(clientStore, inner) : inner;
  }
  if (spec.cors) {
    // Each method keeps its own handler: Next.js answers HEAD with the GET handler, so a request's method may be
    // one the entry does not declare.
    const methods = Object.keys(web);
    for (const method of methods) {
      const { handle, preflight } = withCors(clientStore, methods, web[method as Method]!);
      web[method as Method] = handle;
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
