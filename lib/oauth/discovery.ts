/**
 * OpenID Connect Discovery 1.0 / RFC 8414 metadata of this issuer, with PAR (RFC 9126), DPoP (RFC 9449) and the
 * device authorization grant (RFC 8628).
 */
import { ENDPOINTS } from "@/lib/http/paths";
import type { Config } from "@/lib/config";
import { ASSERTION_ALGORITHMS } from "@/lib/jwt/key-set-rules";
import { DPOP_ALGORITHMS } from "@/lib/jwt/dpop-proof";
import { LOCALES } from "@/lib/i18n/locales";
import { DEVICE_CODE_GRANT, JWT_BEARER_GRANT, TOKEN_EXCHANGE_GRANT } from "@/lib/oauth/grant-types";
import { SIGNING_ALGORITHMS } from "@/lib/store/models/signing-key";
import { scopeDefinitions } from "@/lib/oauth/scopes";
import { ACR_VALUES_SUPPORTED } from "@/lib/session/authentication-level";

const CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt"];

export function discoveryDocument(
  config: Pick<Config, "publicUrl" | "apiScopePrefix" | "tokenSigningAlg" | "idTokenSigningAlg" | "requirePar">,
): Record<string, unknown> {
  const issuer = config.publicUrl;
  return {
    issuer,
    authorization_endpoint: `${issuer}${ENDPOINTS.authorize}`,
    token_endpoint: `${issuer}${ENDPOINTS.token}`,
    userinfo_endpoint: `${issuer}${ENDPOINTS.userinfo}`,
    revocation_endpoint: `${issuer}${ENDPOINTS.revocation}`,
    introspection_endpoint: `${issuer}${ENDPOINTS.introspect}`,
    registration_endpoint: `${issuer}${ENDPOINTS.register}`,
    pushed_authorization_request_endpoint: `${issuer}${ENDPOINTS.par}`,
    require_pushed_authorization_requests: config.requirePar,
    device_authorization_endpoint: `${issuer}${ENDPOINTS.deviceAuthorization}`,
    end_session_endpoint: `${issuer}${ENDPOINTS.endSession}`,
    jwks_uri: `${issuer}${ENDPOINTS.jwks}`,
    scopes_supported: scopeDefinitions(config.apiScopePrefix).map((scope) => scope.name),
    response_types_supported: ["code", "id_token", "id_token token", "token"],
    response_modes_supported: ["query", "fragment", "form_post"],
    grant_types_supported: [
      "authorization_code",
      "implicit",
      "refresh_token",
      "client_credentials",
      JWT_BEARER_GRANT,
      TOKEN_EXCHANGE_GRANT,
      DEVICE_CODE_GRANT,
    ],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS, "none"],
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS, "none"],
    revocation_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    introspection_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    subject_types_supported: ["public"],
    // The server default first; a client may ask for any of them (id_token_signed_response_alg).
    id_token_signing_alg_values_supported: [
      config.idTokenSigningAlg,
      ...SIGNING_ALGORITHMS.filter((alg) => alg !== config.idTokenSigningAlg),
    ],
    access_token_signing_alg_values_supported: [config.tokenSigningAlg],
    dpop_signing_alg_values_supported: DPOP_ALGORITHMS,
    userinfo_signing_alg_values_supported: ["none"],
    claims_supported: [
      "sub",
      "iss",
      "aud",
      "exp",
      "iat",
      "auth_time",
      "acr",
      "amr",
      "nonce",
      "at_hash",
      "sid",
      "name",
      "given_name",
      "family_name",
      "locale",
      "company",
      "email",
      "email_verified",
    ],
    acr_values_supported: ACR_VALUES_SUPPORTED,
    prompt_values_supported: ["none", "login", "consent", "select_account"],
    ui_locales_supported: LOCALES,
    // The claims parameter is read for an essential `acr` only (OpenID Connect Core §5.5.1.1).
    claims_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    authorization_response_iss_parameter_supported: true,
    frontchannel_logout_supported: true,
    frontchannel_logout_session_supported: true,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
  };
}

/** GET /.well-known/openid-configuration: cached by clients for an hour. */
export async function handleDiscoveryRequest(_request: Request, context: { config: Config }): Promise<Response> {
  return Response.json(discoveryDocument(context.config), { headers: { "Cache-Control": "public, max-age=3600" } });
}
