/**
 * AppAuth-JS in a desktop app (Node.js, or Electron's main process): the code flow with PKCE through the system
 * browser, answered on a loopback port (RFC 8252 §7.3), no secret. The redirect URI is the application's first
 * registered loopback one; without one, 127.0.0.1 on a port of the app's choosing, which OptiGate allows every
 * native app.
 */
import { type QuickStartValues, type Snippet } from "../quick-start-values";
import { appAuthConstants } from "./appauth-browser";

/** The port a loopback redirect URI needs when the application registered none. */
export const LOOPBACK_PORT = 8400;

const isLoopback = (uri: string) => /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(:\d+)?\//.test(uri);

function loopbackRedirectUri(values: QuickStartValues): string {
  return values.client.redirectUris.find(isLoopback) ?? `http://127.0.0.1:${LOOPBACK_PORT}/callback`;
}

export function appAuthDesktopSnippet(values: QuickStartValues): Snippet {
  const redirectUri = loopbackRedirectUri(values);
  const port = Number(new URL(redirectUri).port || 80);
  const text = `// sign-in.ts: signs people in with OptiGate from a desktop app (npm install @openid/appauth).
import {
  AuthorizationNotifier,
  AuthorizationRequest,
  AuthorizationServiceConfiguration,
  BaseTokenRequestHandler,
  GRANT_TYPE_AUTHORIZATION_CODE,
  TokenRequest,
  type TokenResponse,
} from "@openid/appauth";
import { NodeBasedHandler, NodeCrypto, NodeRequestor } from "@openid/appauth/built/node_support";

${appAuthConstants(values, redirectUri)}
/** The loopback port of REDIRECT_URI, where the app takes OptiGate's answer. */
const PORT = ${port};

const requestor = new NodeRequestor();

/** Opens the system browser at OptiGate, takes the answer on PORT, checks the state, redeems the code. */
export async function signIn(): Promise<TokenResponse> {
  const configuration = await AuthorizationServiceConfiguration.fetchFromIssuer(ISSUER, requestor);
  const browser = new NodeBasedHandler(PORT);
  const notifier = new AuthorizationNotifier();
  const answered = new Promise<TokenRequest>((resolve, reject) =>
    notifier.setAuthorizationListener((request, response, error) => {
      if (!response || response.state !== request.state || !request.internal)
        return reject(error ?? new Error("OptiGate did not sign you in"));
      resolve(
        new TokenRequest({
          client_id: CLIENT_ID,
          redirect_uri: REDIRECT_URI,
          grant_type: GRANT_TYPE_AUTHORIZATION_CODE,
          code: response.code,
          extras: { code_verifier: request.internal.code_verifier },
        }),
      );
    }),
  );
  browser.setAuthorizationNotifier(notifier);
  const request = new AuthorizationRequest(
    {
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      scope: SCOPE,
      response_type: AuthorizationRequest.RESPONSE_TYPE_CODE,
    },
    new NodeCrypto(),
    true, // PKCE (S256)
  );
  browser.performAuthorizationRequest(configuration, request);
  return new BaseTokenRequestHandler(requestor).performTokenRequest(configuration, await answered);
}
`;
  return {
    id: "appauth-desktop",
    title: "AppAuth-JS (desktop app)",
    files: [{ name: "sign-in.ts", language: "typescript", text }],
  };
}
