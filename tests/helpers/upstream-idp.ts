/**
 * A company's identity provider for the company SSO tests: node-oidc-provider on 127.0.0.1 with OptiGate as its
 * client, accounts with the claims a test gives, and a person signed in through its own pages over plain HTTP (its
 * development consent page; the login step through interactionFinished, so that a test can say which amr and acr
 * the provider reports). Entra-style: the provider's issuer is a tenant's, and `/organizations/v2.0` publishes the
 * `{tenantid}` template as Entra's multi-tenant endpoint does. A test may make the token endpoint hand out ID tokens
 * with other claims, signed with the provider's own key, as a broken or hostile provider would.
 */
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
  secret: string;
  authMethod?: "client_secret_basic" | "client_secret_post";
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
}

/** How the token endpoint's ID tokens are changed: their claims, and who signs them (the provider's key by default). */
export interface Tampering {
  claims?: (claims: JWTPayload) => JWTPayload;
  /** "none": unsigned (alg none); "stranger": a key with the provider's key id that is not in its key set. */
  signer?: "none" | "stranger";
}

export interface UpstreamIdp {
  issuer: string;
  /** `${origin}/{tenantid}/v2.0` for a tenant's provider. */
  template: string;
  /** The paths of the requests the provider received. */
  requests: string[];
  /** From now on, the ID tokens the token endpoint hands out are changed so (none: as issued). */
  tamper(tampering?: Tampering): void;
  close(): Promise<void>;
}

/** A login step the provider's development pages lack: amr and acr as a test says. */
async function finishLogin(
  provider: InstanceType<typeof Provider>,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
) {
  const amr = url.searchParams.get("amr");
  const login = {
    accountId: url.searchParams.get("login")!,
    ...(amr ? { amr: amr.split(",") } : {}),
    ...(url.searchParams.get("acr") ? { acr: url.searchParams.get("acr")! } : {}),
  };
  await provider.interactionFinished(request, response, { login }, { mergeWithLastSubmission: false });
}

function providerOf(issuer: string, options: UpstreamIdpOptions, signingKey: JsonWebKey & { kid: string }) {
  return new Provider(issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.secret,
      token_endpoint_auth_method: client.authMethod ?? "client_secret_basic",
      redirect_uris: [options.redirectUri],
      id_token_signed_response_alg: "ES256",
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
    features: { devInteractions: { enabled: true } },
  });
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
      return finishLogin(provider, request, response, url);
    callback(request, response);
  });
  return {
    issuer,
    template,
    requests,
    tamper: (next) => void (tampering = next),
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
 * the browser back to (the callback with code or error, state and iss).
 */
export async function signInAtUpstream(authorizationUrl: string, redirectUri: string, person: UpstreamPerson) {
  const browser = new CookieBrowser();
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
