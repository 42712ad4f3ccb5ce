/** A registration as RFC 7591 client metadata, as the CLI prints it and the admin pages show and edit it. */
import type { ClientRegistration } from "@/lib/store/models/client";
import { DEFAULT_LANGUAGE_KEY, type LocalizedText } from "@/lib/i18n/localized-text";

function localizedFields(field: string, text: LocalizedText): Record<string, string> {
  return Object.fromEntries(
    Object.entries(text).map(([language, value]) => [
      language === DEFAULT_LANGUAGE_KEY ? field : `${field}#${language}`,
      value,
    ]),
  );
}

/** The registration as RFC 7591 client metadata: what `clients add` accepts, so a client can be re-registered. */
export function toClientMetadata(registration: ClientRegistration & { id: string }): Record<string, unknown> {
  return {
    client_id: registration.id,
    ...localizedFields("client_name", registration.names),
    ...localizedFields("description", registration.descriptions),
    // OpenID Connect Registration's application_type says where the redirect URIs point (a web server or a native
    // app); a backend client has none, so it shows none.
    ...(registration.kind === "backend" ? {} : { application_type: registration.kind === "native" ? "native" : "web" }),
    redirect_uris: registration.redirectUris,
    post_logout_redirect_uris: registration.postLogoutRedirectUris,
    grant_types: registration.grantTypes,
    response_types: registration.responseTypes,
    token_endpoint_auth_method: registration.tokenEndpointAuthMethod,
    scope: registration.allowedScopes.join(" "),
    ...(registration.allowedResources.length > 0 ? { allowed_resources: registration.allowedResources } : {}),
    allowed_cors_origins: registration.corsOrigins,
    offline_access: registration.offlineAccess,
    refresh_token_policy: registration.refreshTokenPolicy,
    ...(registration.frontchannelLogoutUri ? { frontchannel_logout_uri: registration.frontchannelLogoutUri } : {}),
    ...(registration.backchannelLogoutUri ? { backchannel_logout_uri: registration.backchannelLogoutUri } : {}),
    ...(registration.resourceServer ? { resource_server: true } : {}),
    ...(registration.idTokenSignedResponseAlg
      ? { id_token_signed_response_alg: registration.idTokenSignedResponseAlg }
      : {}),
    ...(registration.idTokenClaims ? { id_token_claims: true } : {}),
    ...(registration.dpopBoundAccessTokens ? { dpop_bound_access_tokens: true } : {}),
    ...(registration.requirePushedAuthorizationRequests ? { require_pushed_authorization_requests: true } : {}),
    ...(registration.companyId ? { company_id: registration.companyId } : {}),
    ...(registration.jwks ? { jwks: registration.jwks } : {}),
    ...(registration.jwksUri ? { jwks_uri: registration.jwksUri } : {}),
  };
}
