/**
 * The protocol endpoints and catalog services as web-standard handlers, each defined once. The Next.js route files
 * export them, and the lean HTTP front (lib/server/fast-front.ts) serves the hot ones directly, ahead of Next.js.
 */
import { handleCatalogInfosRequest } from "@/lib/catalog/catalog-infos-endpoint";
import { handleSubCatalogRequest } from "@/lib/catalog/sub-catalog-endpoint";
import { getDb } from "@/lib/db";
import { withCors } from "@/lib/oauth/cors";
import { handleDiscoveryRequest } from "@/lib/oauth/discovery";
import { handleIntrospectionRequest } from "@/lib/oauth/introspection-endpoint";
import { handleJwksRequest } from "@/lib/oauth/keys/jwks-endpoint";
import { handleRevocationRequest } from "@/lib/oauth/revocation-endpoint";
import { handleTokenRequest } from "@/lib/oauth/token/token-endpoint";
import { handleUserinfoRequest } from "@/lib/oauth/userinfo-endpoint";
import { getServiceContext } from "@/lib/service-context";

export const tokenEndpoint = withCors(getDb, ["POST"], (request) => handleTokenRequest(request, getServiceContext()));
export const revocationEndpoint = withCors(getDb, ["POST"], (request) => handleRevocationRequest(request, getServiceContext()));
export const userinfoEndpoint = withCors(getDb, ["GET", "POST"], (request) => handleUserinfoRequest(request, getServiceContext()));
export const discoveryEndpoint = withCors(getDb, ["GET"], (request) => handleDiscoveryRequest(request, getServiceContext()));
export const jwksEndpoint = withCors(getDb, ["GET"], (request) => handleJwksRequest(request, getServiceContext()));
export const introspectionEndpoint = (request: Request) => handleIntrospectionRequest(request, getServiceContext());
export const catalogInfosEndpoint = (request: Request) => handleCatalogInfosRequest(request, getServiceContext());
export const subCatalogEndpoint = (request: Request) => handleSubCatalogRequest(request, getServiceContext());
