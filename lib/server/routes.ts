/**
 * Every route handler of OptiGate, by path, each a web-standard `(Request) => Promise<Response>` defined once. The
 * route files under app/ export these (all in the same shape), and the lean HTTP front of the Node deployment
 * (lib/server/fast-front.ts) serves the hot ones directly, ahead of Next.js. The endpoints clients call at volume
 * (token, revocation, introspection) are written as ProtocolHandlers (lib/http/protocol-message.ts): ROUTES adapts
 * them to Request and Response for Next.js, and PROTOCOL_ROUTES hands them to the lean front as they are.
 */
import { platformApi } from "@/lib/api/v2-api";
import { handleCatalogInfosRequest } from "@/lib/catalog/catalog-infos-endpoint";
import { handleSilentLogin } from "@/lib/catalog/silent-login";
import { handleSubCatalogRequest } from "@/lib/catalog/sub-catalog-endpoint";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { handleHealthRequest } from "@/lib/health/check-health";
import { handleLanguageSwitch } from "@/lib/i18n/language-switch";
import { handleAdminSubmission } from "@/lib/forms/admin-submission";
import { handleCatalogSubmission } from "@/lib/forms/catalog-submission";
import { handleConsentSubmission } from "@/lib/forms/consent-submission";
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
import { handleUserinfoRequest } from "@/lib/oauth/userinfo-endpoint";
import { guardedHandler, guardedProtocolHandler, type Handler } from "@/lib/server/guarded-handler";
import {
  webHandler,
  type ProtocolHandler,
  type ProtocolRequest,
  type ProtocolResponse,
} from "@/lib/http/protocol-message";
import { handleMetricsRequest } from "@/lib/server/metrics-endpoint";
import { getServiceContext, type ServiceContext } from "@/lib/service-context";

export type { Handler };

/** A handler that works on the service context of this process. */
const withContext = (handle: (request: Request, context: ServiceContext) => Promise<Response>): Handler =>
  guardedHandler((request) => handle(request, getServiceContext()));

const cors = (methods: string[], handle: (request: Request, context: ServiceContext) => Promise<Response>) => {
  const { handle: withOrigin, preflight } = withCors(getDb, methods, (request) => handle(request, getServiceContext()));
  return { handle: guardedHandler(withOrigin), preflight: guardedHandler(preflight) };
};

type ProtocolEndpoint = (request: ProtocolRequest, context: ServiceContext) => Promise<ProtocolResponse>;

const inContext =
  (handle: ProtocolEndpoint): ProtocolHandler =>
  (request) =>
    handle(request, getServiceContext());

/** A protocol endpoint for both mounts, guarded: as a ProtocolHandler for the lean front, as a Handler for Next.js. */
function protocolEndpoint(handle: ProtocolEndpoint) {
  const inner = inContext(handle);
  return { protocol: guardedProtocolHandler(inner), handle: guardedHandler(webHandler(inner)) };
}

/** The same for an endpoint browser clients call: with CORS, and its preflight. */
function browserProtocolEndpoint(handle: ProtocolEndpoint) {
  const inner = inContext(handle);
  const { handle: withOrigin, preflight } = withCors(getDb, ["POST"], webHandler(inner));
  return {
    protocol: guardedProtocolHandler(withProtocolCors(getDb, inner)),
    handle: guardedHandler(withOrigin),
    preflight: guardedHandler(preflight),
  };
}

const token = browserProtocolEndpoint(handleTokenRequest);
const revocation = browserProtocolEndpoint(handleRevocationRequest);
const introspection = protocolEndpoint(handleIntrospectionRequest);
const userinfo = cors(["GET", "POST"], handleUserinfoRequest);
const discovery = cors(["GET"], handleDiscoveryRequest);
const jwks = cors(["GET"], handleJwksRequest);
const api = platformApi(getDb, getServiceContext);
const apiHandler = guardedHandler(api.handle);
const authorize = withContext(handleAuthorizeRequest);
const endSession = withContext(handleEndSessionRequest);

export const ROUTES = {
  "/connect/authorize": { GET: authorize, POST: authorize },
  "/connect/token": { POST: token.handle, OPTIONS: token.preflight },
  "/connect/revocation": { POST: revocation.handle, OPTIONS: revocation.preflight },
  "/connect/userinfo": { GET: userinfo.handle, POST: userinfo.handle, OPTIONS: userinfo.preflight },
  "/connect/introspect": { POST: introspection.handle },
  "/connect/endsession": { GET: endSession, POST: endSession },
  "/.well-known/openid-configuration": { GET: discovery.handle, OPTIONS: discovery.preflight },
  "/.well-known/openid-configuration/jwks": { GET: jwks.handle, OPTIONS: jwks.preflight },
  "/getCatalogInfos.ashx": { GET: withContext(handleCatalogInfosRequest) },
  "/getSubCatalog.ashx": { GET: withContext(handleSubCatalogRequest) },
  "/services/login/SilentLogin": { POST: withContext(handleSilentLogin) },
  "/interaction/login": { POST: withContext(handleLoginSubmission) },
  "/interaction/consent": { POST: withContext(handleConsentSubmission) },
  "/interaction/signout": { POST: withContext(handleSignOutSubmission) },
  "/interaction/portal": { POST: withContext(handlePortalSubmission) },
  "/interaction/admin": { POST: withContext(handleAdminSubmission) },
  "/interaction/catalogs": { POST: withContext(handleCatalogSubmission) },
  "/interaction/suppliers": { POST: withContext(handleRegistrationSubmission) },
  "/language": { GET: guardedHandler(async (request) => handleLanguageSwitch(request, getConfig().publicUrl)) },
  "/api/health": { GET: withContext(handleHealthRequest) },
  "/metrics": { GET: withContext(handleMetricsRequest) },
  // The platform API routes every path and method under /v2/ itself (lib/api/v2-api.ts).
  "/v2/[...path]": {
    GET: apiHandler,
    HEAD: apiHandler,
    POST: apiHandler,
    PATCH: apiHandler,
    PUT: apiHandler,
    DELETE: apiHandler,
    OPTIONS: guardedHandler(api.preflight),
  },
} as const satisfies Record<
  string,
  Partial<Record<"GET" | "HEAD" | "POST" | "PATCH" | "PUT" | "DELETE" | "OPTIONS", Handler>>
>;

export type RoutePath = keyof typeof ROUTES;

/** The same endpoints as ProtocolHandlers, for the lean front. */
export const PROTOCOL_ROUTES: Partial<Record<RoutePath, { POST: ProtocolHandler }>> = {
  "/connect/token": { POST: token.protocol },
  "/connect/revocation": { POST: revocation.protocol },
  "/connect/introspect": { POST: introspection.protocol },
};
