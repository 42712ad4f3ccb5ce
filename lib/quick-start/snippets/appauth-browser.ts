/**
 * AppAuth-JS in the browser, for a single-page app: the code flow with PKCE and state through a redirect, no secret,
 * the application's values written in.
 */
import { isPlainHttp, literal, scopeOf, type QuickStartValues, type Snippet } from "../quick-start-values";

/** The values as constants at the top of an AppAuth-JS module, with a word on a plain-http issuer. */
export function appAuthConstants(values: QuickStartValues, redirectUri: string): string {
  const plainHttp = isPlainHttp(values)
    ? "// The demo's issuer is plain http, which AppAuth-JS takes as it is; in production it is https.\n"
    : "";
  return `${plainHttp}const ISSUER = ${literal(values.issuer)};
const CLIENT_ID = ${literal(values.client.id)};
const REDIRECT_URI = ${literal(redirectUri)};
const SCOPE = ${literal(scopeOf(values))};`;
}

export function appAuthBrowserSnippet(values: QuickStartValues): Snippet {
  const text = `// sign-in.ts: signs people in with OptiGate from a single-page app (npm install @openid/appauth).
import {
  AuthorizationNotifier,
  AuthorizationRequest,
  AuthorizationServiceConfiguration,
  BaseTokenRequestHandler,
  FetchRequestor,
  GRANT_TYPE_AUTHORIZATION_CODE,
  RedirectRequestHandler,
  TokenRequest,
  type TokenResponse,
} from "@openid/appauth";

${appAuthConstants(values, values.client.redirectUris[0])}

const requestor = new FetchRequestor();
const redirects = new RedirectRequestHandler();

/** Sends the browser to OptiGate; AppAuth keeps the request, with its PKCE verifier, in localStorage. */
export async function signIn(): Promise<void> {
  const configuration = await AuthorizationServiceConfiguration.fetchFromIssuer(ISSUER, requestor);
  const request = new AuthorizationRequest(
    {
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      scope: SCOPE,
      response_type: AuthorizationRequest.RESPONSE_TYPE_CODE,
    },
    undefined,
    true, // PKCE (S256)
  );
  redirects.performAuthorizationRequest(configuration, request);
}

/** On the page at REDIRECT_URI: checks the state and redeems the code with the PKCE verifier. */
export async function completeSignIn(): Promise<TokenResponse> {
  const configuration = await AuthorizationServiceConfiguration.fetchFromIssuer(ISSUER, requestor);
  const notifier = new AuthorizationNotifier();
  let redemption: TokenRequest | undefined;
  notifier.setAuthorizationListener((request, response) => {
    if (response && request.internal)
      redemption = new TokenRequest({
        client_id: CLIENT_ID,
        redirect_uri: REDIRECT_URI,
        grant_type: GRANT_TYPE_AUTHORIZATION_CODE,
        code: response.code,
        extras: { code_verifier: request.internal.code_verifier },
      });
  });
  redirects.setAuthorizationNotifier(notifier);
  await redirects.completeAuthorizationRequestIfPossible();
  if (!redemption) throw new Error("OptiGate did not sign you in");
  return new BaseTokenRequestHandler(requestor).performTokenRequest(configuration, redemption);
}
`;
  return {
    id: "appauth-browser",
    title: "AppAuth-JS (single-page app)",
    files: [{ name: "sign-in.ts", language: "typescript", text }],
  };
}
