/**
 * Spring Security's OAuth 2.0 login (application.yml of Spring Boot 4 with spring-boot-starter-oauth2-client): the
 * registration and the provider by its issuer, with the application's values written in and the secret from the
 * environment. Spring Security 7 adds PKCE to authorization_code registrations by default.
 */
import {
  endsWithPath,
  isPlainHttp,
  literal,
  redirectUriFor,
  type QuickStartValues,
  type Snippet,
} from "../quick-start-values";

/** Where Spring Security takes the answer for the registration `optigate` unless told otherwise. */
const SPRING_CALLBACK_PATH = "/login/oauth2/code/optigate";

const PLAIN_HTTP_NOTE =
  "            # The demo's issuer is plain http, which Spring Security takes as it is; in production it is https.\n";

/** Comment lines ahead of the redirect URI when Spring Security must be told to take the answer at its path. */
function redirectNote(redirectUri: string): string {
  if (endsWithPath(redirectUri, SPRING_CALLBACK_PATH)) return "";
  const path = new URL(redirectUri).pathname;
  return `            # Spring Security takes the answer at /login/oauth2/code/* unless your SecurityFilterChain says
            # http.oauth2Login(login -> login.redirectionEndpoint(endpoint -> endpoint.baseUri(${literal(path)})))
`;
}

export function springSnippet(values: QuickStartValues): Snippet {
  const { issuer, client } = values;
  const redirectUri = redirectUriFor(values, SPRING_CALLBACK_PATH)!;
  const scopes = client.allowedScopes.map(literal).join(", ");
  const method = client.tokenEndpointAuthMethod;
  const text = `# application.yml: signs people in with OptiGate through Spring Security's OAuth 2.0 login
# (Spring Boot 4, spring-boot-starter-oauth2-client). Spring Security 7 sends PKCE with every authorization_code
# registration.
# The client secret comes from the environment: OPTIGATE_CLIENT_SECRET.
spring:
  security:
    oauth2:
      client:
        registration:
          optigate:
            provider: optigate
            client-id: ${literal(client.id)}
            client-secret: \${OPTIGATE_CLIENT_SECRET}
            client-authentication-method: ${method}
            authorization-grant-type: authorization_code
${redirectNote(redirectUri)}            redirect-uri: ${literal(redirectUri)}
            scope: [${scopes}]
        provider:
          optigate:
${isPlainHttp(values) ? PLAIN_HTTP_NOTE : ""}            issuer-uri: ${literal(issuer)}
            user-name-attribute: sub
`;
  return {
    id: "spring",
    title: "Spring Security (Spring Boot 4)",
    files: [{ name: "application.yml", language: "yaml", text }],
  };
}
