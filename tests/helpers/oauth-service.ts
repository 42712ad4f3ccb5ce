/**
 * An OptiGate on a fresh test database with the demo data and signing keys, and a user agent that calls the real
 * route handlers the way a browser would: it keeps cookies, and fills in the CSRF token the pages render.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { loadConfig } from "@/lib/config";
import type { DatabaseTarget } from "@/lib/config/database-url";
import { prepareDatabase } from "@/lib/setup/prepare-database";
import { CSRF_FIELD, csrfCookieName, csrfToken } from "@/lib/session/csrf";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { createTestDatabase, useDatabaseForService, type TestDatabase } from "./test-database";

export const ISSUER = "http://localhost:3000";
export const SECRET_KEY = "integration-test-secret-key-0123456789";
export const CSRF_COOKIE = csrfCookieName(ISSUER);

export interface Service {
  database: TestDatabase;
}

/** Points the route handlers at `target` and gives it the demo data and signing keys; `issuer`: its PUBLIC_URL. */
export async function startOAuthService(target: DatabaseTarget, issuer = ISSUER): Promise<void> {
  process.env.PUBLIC_URL = issuer;
  process.env.SECRET_KEY = SECRET_KEY;
  useDatabaseForService(target);
  await prepareDatabase({ ...loadConfig(), demoData: true });
}

/** Registers before/after hooks that give the test file its own service; returns a getter for it. */
export function useOAuthService(): () => Service {
  let service: Service | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase();
    await startOAuthService(database.target);
    service = { database };
  });
  afterAll(async () => service?.database.drop());
  return () => service!;
}

type Handler = (request: Request) => Promise<Response>;

const routes = {
  authorize: () => import("@/app/connect/authorize/route").then((m) => m.GET as Handler),
  token: () => import("@/app/connect/token/route").then((m) => m.POST as Handler),
  par: () => import("@/app/connect/par/route").then((m) => m.POST as Handler),
  deviceauthorization: () => import("@/app/connect/deviceauthorization/route").then((m) => m.POST as Handler),
  device: () => import("@/app/interaction/device/route").then((m) => m.POST as Handler),
  userinfo: () => import("@/app/connect/userinfo/route").then((m) => m.GET as Handler),
  login: () => import("@/app/interaction/login/route").then((m) => m.POST as Handler),
  consent: () => import("@/app/interaction/consent/route").then((m) => m.POST as Handler),
  revocation: () => import("@/app/connect/revocation/route").then((m) => m.POST as Handler),
  introspect: () => import("@/app/connect/introspect/route").then((m) => m.POST as Handler),
  endsession: () => import("@/app/connect/endsession/route").then((m) => m.GET as Handler),
  "sso-callback": () => import("@/app/login/sso/callback/route").then((m) => m.GET as Handler),
  "sso-start": () => import("@/app/login/sso/start/route").then((m) => m.GET as Handler),
  "sso-backchannel-logout": () => import("@/app/login/sso/backchannel-logout/route").then((m) => m.POST as Handler),
  signout: () => import("@/app/interaction/signout/route").then((m) => m.POST as Handler),
  portal: () => import("@/app/interaction/portal/route").then((m) => m.POST as Handler),
  admin: () => import("@/app/interaction/admin/route").then((m) => m.POST as Handler),
  catalogs: () => import("@/app/interaction/catalogs/route").then((m) => m.POST as Handler),
  suppliers: () => import("@/app/interaction/suppliers/route").then((m) => m.POST as Handler),
  invitation: () => import("@/app/interaction/invitation/route").then((m) => m.POST as Handler),
  company: () => import("@/app/interaction/company/route").then((m) => m.POST as Handler),
  "company-sso": () => import("@/app/interaction/company/sso/route").then((m) => m.POST as Handler),
  companies: () => import("@/app/interaction/companies/route").then((m) => m.POST as Handler),
  forgot: () => import("@/app/interaction/password/forgot/route").then((m) => m.POST as Handler),
  reset: () => import("@/app/interaction/password/reset/route").then((m) => m.POST as Handler),
  email: () => import("@/app/interaction/email/route").then((m) => m.POST as Handler),
  account: () => import("@/app/interaction/account/route").then((m) => m.POST as Handler),
  register: () =>
    import("@/app/connect/register/route").then(
      (m) => (request: Request) => (m[request.method as "POST" | "GET" | "PUT" | "DELETE"] as Handler)(request),
    ),
  developer: () => import("@/app/interaction/developer/route").then((m) => m.POST as Handler),
  "developer-trial": () => import("@/app/interaction/developer/try/route").then((m) => m.POST as Handler),
  "developer-callback": () => import("@/app/portal/developer/callback/route").then((m) => m.GET as Handler),
  passkey: () => import("@/app/interaction/passkey/route").then((m) => m.POST as Handler),
  "second-factor": () => import("@/app/interaction/second-factor/route").then((m) => m.POST as Handler),
  security: () => import("@/app/interaction/security/route").then((m) => m.POST as Handler),
  "not-me": () =>
    import("@/app/login/not-me/route").then(
      (m) => (request: Request) => (m[request.method as "GET" | "POST"] as Handler)(request),
    ),
};

type FormRoute =
  | "login"
  | "device"
  | "signout"
  | "portal"
  | "admin"
  | "catalogs"
  | "suppliers"
  | "invitation"
  | "company"
  | "company-sso"
  | "companies"
  | "forgot"
  | "reset"
  | "email"
  | "account"
  | "developer"
  | "developer-trial"
  | "passkey"
  | "second-factor"
  | "security"
  | "not-me";

export async function call(route: keyof typeof routes, request: Request): Promise<Response> {
  return (await routes[route]())(request);
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export function formRequest(
  path: string,
  form: Record<string, string | string[]>,
  headers: Record<string, string> = {},
): Request {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) for (const item of [value].flat()) body.append(name, item);
  return new Request(`${ISSUER}${path}`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
  });
}

export function basic(clientId: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString("base64")}`;
}

/** A browser: a cookie jar and the steps of the interactive flow. */
export class UserAgent {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly acceptLanguage = "en",
    readonly address = "198.51.100.7",
    /** the User-Agent header, if the browser is to name itself */
    readonly browser?: string,
  ) {
    this.cookies.set(CSRF_COOKIE, randomBytes(32).toString("base64url"));
  }

  get csrfToken(): string {
    return csrfToken(this.cookies.get(CSRF_COOKIE)!, SECRET_KEY, this.cookies.get(SESSION_COOKIE));
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
    const named: Record<string, string> = this.browser ? { "user-agent": this.browser } : {};
    return { cookie, "accept-language": this.acceptLanguage, "x-forwarded-for": this.address, ...named, ...extra };
  }

  private keepCookies(response: Response): Response {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")), decodeURIComponent(pair.slice(pair.indexOf("=") + 1))];
      if (attributes.some((a) => a.trim().toLowerCase() === "max-age=0")) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async authorize(params: Record<string, string>): Promise<Response> {
    return this.authorizeUrl(`${ISSUER}/connect/authorize?${new URLSearchParams(params)}`);
  }

  async authorizeUrl(url: string): Promise<Response> {
    return this.keepCookies(
      await call("authorize", new Request(url.startsWith("/") ? `${ISSUER}${url}` : url, { headers: this.headers() })),
    );
  }

  async login(
    returnUrl: string,
    username: string,
    password: string,
    overrides: Record<string, string> = {},
  ): Promise<Response> {
    const form = { [CSRF_FIELD]: this.csrfToken, returnUrl, username, password, ...overrides };
    return this.keepCookies(await call("login", formRequest("/interaction/login", form, this.headers())));
  }

  /** Posts one of OptiGate's own forms (portal, sign-out) with this agent's cookies and CSRF token. */
  async post(route: FormRoute, path: string, form: Record<string, string | string[]>): Promise<Response> {
    return this.keepCookies(
      await call(route, formRequest(path, { [CSRF_FIELD]: this.csrfToken, ...form }, this.headers())),
    );
  }

  /** Posts a multipart form with one file, as a browser uploads it. */
  async upload(
    route: "catalogs",
    path: string,
    fields: Record<string, string>,
    file: { field: string; name: string; content: string },
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const form = new FormData();
    for (const [name, value] of Object.entries({ [CSRF_FIELD]: this.csrfToken, ...fields })) form.append(name, value);
    form.append(file.field, new Blob([file.content], { type: "text/xml" }), file.name);
    // As bytes, the way a socket delivers them: Node 24's FormData-backed body stream throws an unhandled rejection
    // when a handler cancels it unread.
    const encoded = new Response(form);
    const body = await encoded.arrayBuffer();
    const type = { "content-type": encoded.headers.get("content-type")! };
    return this.keepCookies(
      await call(
        route,
        new Request(`${ISSUER}${path}`, { method: "POST", body, headers: this.headers({ ...type, ...headers }) }),
      ),
    );
  }

  async get(
    route: "endsession" | "sso-callback" | "sso-start" | "developer-callback" | "not-me",
    url: string,
  ): Promise<Response> {
    return this.keepCookies(await call(route, new Request(`${ISSUER}${url}`, { headers: this.headers() })));
  }

  async consent(
    interaction: string,
    decision: "allow" | "deny",
    scopes: string[],
    overrides: Record<string, string> = {},
  ): Promise<Response> {
    const form = { [CSRF_FIELD]: this.csrfToken, interaction, decision, scope: scopes, ...overrides };
    return this.keepCookies(await call("consent", formRequest("/interaction/consent", form, this.headers())));
  }
}

/** The returnUrl of a redirect to /login. */
export function returnUrlOf(response: Response): string {
  const location = response.headers.get("location")!;
  return new URL(location, ISSUER).searchParams.get("returnUrl")!;
}

/** The consent prompt a redirect to /consent names. */
export function interactionOf(response: Response): string {
  const location = response.headers.get("location")!;
  return new URL(location, ISSUER).searchParams.get("interaction")!;
}

/** The parameters OptiGate sent to the client's redirect URI (query or fragment). */
export function callbackParams(response: Response): URLSearchParams {
  const url = new URL(response.headers.get("location")!);
  return url.hash ? new URLSearchParams(url.hash.slice(1)) : url.searchParams;
}

/** A user agent signed in as the given demo user. */
export async function signedInAgent(email: string, password: string): Promise<UserAgent> {
  const agent = new UserAgent();
  const response = await agent.login("/", email, password);
  if (response.headers.get("location") !== "/") throw new Error(`could not sign in ${email}`);
  return agent;
}

export const demoWeb = {
  client_id: "demo-web",
  redirect_uri: "http://localhost:4000/callback",
  secret: "demo-web-secret",
};

/** demo-web redeems a refresh token at the token endpoint. */
export const refreshDemoWeb = (refreshToken: string) =>
  call(
    "token",
    formRequest(
      "/connect/token",
      { grant_type: "refresh_token", refresh_token: refreshToken },
      { Authorization: basic(demoWeb.client_id, demoWeb.secret) },
    ),
  );

/** Signs the demo optician in and allows the request, returning the code sent to the client. */
export async function authorizeWithConsent(
  agent: UserAgent,
  params: Record<string, string>,
  grant?: string[],
): Promise<{ code: string; response: Response }> {
  let response = await agent.authorize(params);
  if (response.headers.get("location")?.startsWith("/login")) {
    response = await agent.login(returnUrlOf(response), "optician@demo.test", "Optician#2026");
    response = await agent.authorizeUrl(response.headers.get("location")!);
  }
  if (response.headers.get("location")?.startsWith("/consent")) {
    response = await agent.consent(interactionOf(response), "allow", grant ?? params.scope.split(" "));
  }
  const code = response.headers.get("location") ? callbackParams(response).get("code") : null;
  return { code: code ?? "", response };
}
