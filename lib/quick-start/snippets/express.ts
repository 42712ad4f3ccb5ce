/**
 * Express with openid-client 6: a server that signs people in (code flow with PKCE and state, the secret at the token
 * endpoint) and shows their claims from userinfo. It reads the application's `.env`; the integration test
 * tests/integration/quick-start/express-snippet.test.ts runs it as written against a plain-http OptiGate.
 */
import { envLines } from "../env-file";
import { isPlainHttp, RANDOM_PLACEHOLDER, type QuickStartValues, type Snippet } from "../quick-start-values";

/** The line that lets openid-client talk to the demo's plain-http issuer, with the comment naming it. */
export const EXPRESS_PLAIN_HTTP = `  undefined,
  // The demo's issuer is plain http: drop this line in production (https).
  { execute: [oidc.allowInsecureRequests] },
`;

const server = (plainHttp: boolean) => `// server.mjs: signs people in with OptiGate and shows their claims.
// npm install express express-session openid-client
// node --env-file=.env server.mjs
import express from "express";
import session from "express-session";
import * as oidc from "openid-client";

const env = process.env;
const redirectUri = new URL(env.OPTIGATE_REDIRECT_URI);
const config = await oidc.discovery(
  new URL(env.OPTIGATE_ISSUER),
  env.OPTIGATE_CLIENT_ID,
  env.OPTIGATE_CLIENT_SECRET,
${plainHttp ? EXPRESS_PLAIN_HTTP : ""});

const app = express();
// The sign-in under way and then the user live in the session, in this process's memory: give express-session a
// shared store when several processes serve the app, and cookie.secure (with "trust proxy") behind https.
app.use(session({ secret: env.SESSION_SECRET, resave: false, saveUninitialized: false, cookie: { sameSite: "lax" } }));

app.get("/", (req, res) => {
  if (req.session.user) res.json(req.session.user);
  else res.send('<a href="/login">Sign in with OptiGate</a>');
});

app.get("/login", async (req, res) => {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  req.session.signIn = { codeVerifier, state };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri.href,
    scope: env.OPTIGATE_SCOPE,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
  });
  res.redirect(url.href);
});

app.get(redirectUri.pathname, async (req, res, next) => {
  const { signIn } = req.session;
  if (!signIn) return void res.status(400).send('No sign-in under way: <a href="/login">sign in</a>.');
  const tokens = await oidc.authorizationCodeGrant(config, new URL(req.originalUrl, redirectUri), {
    pkceCodeVerifier: signIn.codeVerifier,
    expectedState: signIn.state,
  });
  const user = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims().sub);
  // A new session for the signed-in user, so that no one who knew the old one shares it.
  req.session.regenerate((error) => {
    if (error) return next(error);
    req.session.user = user;
    res.redirect("/");
  });
});

const port = Number(env.PORT || redirectUri.port || 3000);
app.listen(port, () => console.log(\`Listening on port \${port}: sign in at \${redirectUri.origin}/login\`));
`;

export function expressSnippet(values: QuickStartValues): Snippet {
  return {
    id: "express",
    title: "Express with openid-client 6",
    files: [
      {
        name: ".env (Express adds this)",
        language: "dotenv",
        text: envLines([["SESSION_SECRET", RANDOM_PLACEHOLDER, "Signs the session cookie: openssl rand -base64 32"]]),
      },
      { name: "server.mjs", language: "javascript", text: server(isPlainHttp(values)) },
    ],
  };
}
