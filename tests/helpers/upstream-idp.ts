/**
 * A company's identity provider for the company SSO tests: node-oidc-provider on 127.0.0.1 with OptiGate as its
 * client, accounts with the claims a test gives, and a person signed in through its own pages over plain HTTP (its
 * development consent page; the login step through interactionFinished, so that a test can say which amr and acr
 * the provider reports). Entra-style: the provider's issuer is a tenant's, and `/organizations/v2.0` publishes the
 * `{tenantid}` template as Entra's multi-tenant endpoint does. A test may make the token endpoint hand out ID tokens
 * with other claims, signed with the provider's own key, as a broken or hostile provider would. Given OptiGate's
 * back-channel logout URI, the provider puts `sid` in its ID tokens and, when a person signs out at it, posts its
 * logout token there; a test may also sign logout tokens of its own with the provider's key.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type GenerateKeyPairResult,
  type JWTPayload,
} from "jose";
import Provider from "./oidc-provider";
import { CookieBrowser, location } from "./cookie-browser";

export interface UpstreamClient {
  clientId: string;
  /** Absent with private_key_jwt. */
  secret?: string;
  authMethod?: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
  /** The keys of the client's assertions (private_key_jwt): OptiGate's JWKS. */
  jwks?: { keys: object[] };
}

export interface UpstreamIdpOptions {
  /** OptiGate's callback, registered for every client. */
  redirectUri: string;
  clients: UpstreamClient[];
  /** Claims by account id (sub): email, email_verified, given_name, family_name, groups, hd, tid. */
  accounts: Record<string, Record<string, unknown>>;
  /** Entra-style: the issuer is `${origin}/${tenant}/v2.0`, and `${origin}/organizations/v2.0` names the template. */
  tenant?: string;
  /** Profile claims in userinfo only, as in Okta's and Entra's ID tokens. */
  thinIdTokens?: boolean;
  /** OptiGate's back-channel logout URI, registered for every client (with backchannel_logout_session_required). */
  backchannelLogoutUri?: string;
}

/** How the token endpoint's ID tokens are changed: their claims, and who signs them (the provider's key by default). */
export interface Tampering {
  claims?: (claims: JWTPayload) => JWTPayload;
  /** "none": unsigned (alg none); "stranger": a key with the provider's key id that is not in its key set. */
  signer?: "none" | "stranger";
}

/** A back-channel logout the provider sent when a person signed out: to which client, about whom, and whether it took. */
export interface SentLogout {
  clientId: string;
  sub: string;
  sid: string;
  error?: string;
}

export interface UpstreamIdp {
  issuer: string;
  /** `${origin}/{tenantid}/v2.0` for a tenant's provider. */
  template: string;
  /** The paths of the requests the provider received. */
  requests: string[];
  /** The back-channel logouts the provider sent, in order. */
  logouts: SentLogout[];
  /** From now on, the ID tokens the token endpoint hands out are changed so (none: as issued). */
  tamper(tampering?: Tampering): void;
  /**
   * A logout token for `aud` as the provider signs it (iss, iat, a fresh jti and the logout event), with `claims` over
   * those (undefined leaves one out), signed with the provider's key or a stranger's that claims its key id.
   */
  logoutToken(aud: string, claims: JWTPayload, signer?: "stranger"): Promise<string>;
  /** The person of `browser` signs out at the provider, confirming its logout page: its back-channel logouts go. */
  signOut(browser: CookieBrowser): Promise<void>;
  close(): Promise<void>;
}

/** A login step the provider's development pages lack: amr and acr as a test says. */
async function finishLogin(
  provider: InstanceType<typeof Provider>,
  accounts: UpstreamIdpOptions["accounts"],
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
) {
  const accountId = url.searchParams.get("login")!;
  // A person whose account the provider no longer has (deactivated there) is refused, as providers answer so.
  if (!Object.hasOwn(accounts, accountId)) {
    const error = { error: "access_denied", error_description: "the account is deactivated" };
    return provider.interactionFinished(request, response, error, { mergeWithLastSubmission: false });
  }
  const amr = url.searchParams.get("amr");
  const login = {
    accountId,
    ...(amr ? { amr: amr.split(",") } : {}),
    ...(url.searchParams.get("acr") ? { acr: url.searchParams.get("acr")! } : {}),
  };
  await provider.interactionFinished(request, response, { login }, { mergeWithLastSubmission: false });
}

function providerOf(issuer: string, options: UpstreamIdpOptions, signingKey: JsonWebKey & { kid: string }) {
  return new Provider(issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      ...(client.secret ? { client_secret: client.secret } : {}),
      ...(client.jwks ? { jwks: client.jwks } : {}),
      token_endpoint_auth_method: client.authMethod ?? "client_secret_basic",
      redirect_uris: [options.redirectUri],
      id_token_signed_response_alg: "ES256",
      ...(options.backchannelLogoutUri
        ? { backchannel_logout_uri: options.backchannelLogoutUri, backchannel_logout_session_required: true }
        : {}),
    })),
    jwks: { keys: [signingKey] },
    cookies: { keys: ["upstream-cookie-key"] },
    claims: {
      openid: ["sub", "amr", "acr", "groups", "hd", "tid"],
      email: ["email", "email_verified"],
      profile: ["given_name", "family_name"],
    },
    acrValues: ["urn:example:mfa"],
    conformIdTokenClaims: options.thinIdTokens ?? false,
    findAccount: async (_ctx, id) =>
      options.accounts[id] && { accountId: id, claims: async () => ({ sub: id, ...options.accounts[id] }) },
    features: {
      devInteractions: { enabled: true },
      backchannelLogout: { enabled: options.backchannelLogoutUri !== undefined },
    },
    // OptiGate under test listens on the loopback, where the provider's guard against SSRF would not let it post.
    fetch: (url, init = {}) => {
      const { dispatcher: _guard, ...rest } = init as RequestInit & { dispatcher?: unknown };
      return fetch(url, rest);
    },
  });
}

/** The provider's back-channel logouts as they go out, for a test to see. */
function recordLogouts(provider: InstanceType<typeof Provider>, logouts: SentLogout[]) {
  type Sent = [unknown, { clientId: string }, string, string];
  provider.on("backchannel.success", (...[, client, sub, sid]: Sent) =>
    logouts.push({ clientId: client.clientId, sub, sid }),
  );
  provider.on(
    "backchannel.error",
    (_ctx: unknown, error: Error, client: { clientId: string }, sub: string, sid: string) =>
      logouts.push({ clientId: client.clientId, sub, sid, error: error.message }),
  );
}

/** Confirms the provider's logout page in `browser`, as a person who signs out there does. */
async function signOutAt(issuer: string, browser: CookieBrowser) {
  const page = await (await browser.get(`${issuer}/session/end`)).text();
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)?.[1];
  if (!xsrf) throw new Error("the provider showed no logout page: nobody is signed in there");
  const answer = await browser.post(`${issuer}/session/end/confirm`, { xsrf, logout: "yes" });
  if (answer.status !== 303) throw new Error(`the provider answered the logout with ${answer.status}`);
}

/** The ID token with the tampering's claims, signed as it says. */
async function reissued(
  idToken: string,
  tampering: Tampering,
  keys: { own: GenerateKeyPairResult; stranger: GenerateKeyPairResult },
): Promise<string> {
  const claims = (tampering.claims ?? ((same) => same))(decodeJwt(idToken));
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString("base64url");
  if (tampering.signer === "none") return `${encode({ alg: "none" })}.${encode(claims)}.`;
  const header = decodeProtectedHeader(idToken) as { alg: string; kid: string };
  const key = tampering.signer === "stranger" ? keys.stranger.privateKey : keys.own.privateKey;
  return new SignJWT(claims).setProtectedHeader(header).sign(key);
}

export async function startUpstreamIdp(options: UpstreamIdpOptions): Promise<UpstreamIdp> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const prefix = options.tenant ? `/${options.tenant}/v2.0` : "";
  const issuer = `${origin}${prefix}`;
  const template = `${origin}/{tenantid}/v2.0`;
  const keys = { own: await generateKeyPair("ES256", { extractable: true }), stranger: await generateKeyPair("ES256") };
  const signingKey = { ...(await exportJWK(keys.own.privateKey)), kid: "upstream-1", alg: "ES256", use: "sig" };
  const provider = providerOf(issuer, options, signingKey);
  const logouts: SentLogout[] = [];
  recordLogouts(provider, logouts);
  let tampering: Tampering | undefined;
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (tampering && ctx.oidc?.route === "token" && body?.id_token)
      ctx.body = { ...body, id_token: await reissued(body.id_token, tampering, keys) };
  });
  const requests: string[] = [];
  const callback = provider.callback();
  server.on("request", async (request: IncomingMessage & { originalUrl?: string }, response: ServerResponse) => {
    const url = new URL(request.url!, origin);
    requests.push(url.pathname);
    if (options.tenant && url.pathname === "/organizations/v2.0/.well-known/openid-configuration") {
      const metadata = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
      response.setHeader("content-type", "application/json");
      return response.end(JSON.stringify({ ...metadata, issuer: template }));
    }
    if (prefix && url.pathname.startsWith(`${prefix}/`)) {
      // As a mounting framework does: the provider sees its own paths and finds its mount path in originalUrl.
      request.originalUrl = request.url;
      request.url = request.url!.slice(prefix.length);
    }
    if (/^\/interaction\/[^/]+\/test-login$/.test(new URL(request.url!, origin).pathname))
      return finishLogin(provider, options.accounts, request, response, url);
    callback(request, response);
  });
  return {
    issuer,
    template,
    requests,
    logouts,
    tamper: (next) => void (tampering = next),
    logoutToken: (aud, claims, signer) => {
      const event = { "http://schemas.openid.net/event/backchannel-logout": {} };
      const base = { iss: issuer, aud, iat: Math.floor(Date.now() / 1000), jti: randomUUID(), events: event };
      const key = signer === "stranger" ? keys.stranger.privateKey : keys.own.privateKey;
      const header = { alg: "ES256", kid: signingKey.kid, typ: "logout+jwt" };
      return new SignJWT(JSON.parse(JSON.stringify({ ...base, ...claims }))).setProtectedHeader(header).sign(key);
    },
    signOut: (browser) => signOutAt(issuer, browser),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface UpstreamPerson {
  login: string;
  amr?: string[];
  acr?: string;
  /** Leave at the login page instead ("abort"): the provider answers access_denied. */
  abort?: boolean;
}

/**
 * Follows the authorization request through the provider's pages as `person` and returns the URL the provider sends
 * the browser back to (the callback with code or error, state and iss). `browser` keeps the provider's session.
 */
export async function signInAtUpstream(
  authorizationUrl: string,
  redirectUri: string,
  person: UpstreamPerson,
  browser = new CookieBrowser(),
) {
  let response = await browser.get(authorizationUrl);
  for (let step = 0; step < 10; step++) {
    const next = location(response, authorizationUrl);
    if (next.startsWith(`${redirectUri}?`)) return new URL(next);
    if (!/\/interaction\/[^/]+$/.test(new URL(next).pathname)) {
      response = await browser.get(next);
      continue;
    }
    const page = await (await browser.get(next)).text();
    if (page.includes('name="prompt" value="consent"')) response = await browser.post(next, { prompt: "consent" });
    else if (person.abort) response = await browser.get(`${next}/abort`);
    else {
      const login = new URLSearchParams({
        login: person.login,
        amr: person.amr?.join(",") ?? "",
        acr: person.acr ?? "",
      });
      response = await browser.get(`${next}/test-login?${login}`);
    }
  }
  throw new Error(`the provider did not send the browser back to ${redirectUri}`);
}
