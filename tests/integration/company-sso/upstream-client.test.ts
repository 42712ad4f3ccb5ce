/**
 * OptiGate as the relying party of a company's identity provider: real node-oidc-provider instances on 127.0.0.1
 * (reached under OUTBOUND_ALLOW, as an operator's registration may), a person signed in through their pages, and
 * the answer checked as issue 46 asks: claims and assurance passed on; another issuer, audience, nonce or state, a
 * code from another company's provider (RFC 9207), another Entra tenant or Google Workspace domain refused; the
 * provider's own errors and its absence reported by code, never thrown as something else.
 */
import { createHash } from "node:crypto";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseAddressRanges } from "@/lib/config/address-ranges";
import { CompanySignInFailed } from "@/lib/oauth/company-sso/company-sign-in-failed";
import type { CompanySsoConfig } from "@/lib/oauth/company-sso/company-sso-config";
import { finishCompanySignIn } from "@/lib/oauth/company-sso/finish-company-sign-in";
import { startCompanySignIn, type CompanySignInOptions } from "@/lib/oauth/company-sso/start-company-sign-in";
import { signInAtUpstream, startUpstreamIdp, type UpstreamIdp, type UpstreamPerson } from "../../helpers/upstream-idp";

const REDIRECT_URI = "http://localhost:3000/login/sso/callback";
const RULES = { production: false, outboundAllow: parseAddressRanges("127.0.0.0/8") };
const ANNA = "anna@lens-works.example";
const TENANT = "0b1d2c3e-1111-4222-8333-944455556666";
const OTHER_TENANT = "9f8e7d6c-5555-4444-a333-222211110000";
const CLIENTS = [
  { clientId: "optigate", secret: "optigate-secret" },
  { clientId: "optigate-post", secret: "optigate-post-secret", authMethod: "client_secret_post" as const },
];
const ACCOUNTS = {
  [ANNA]: {
    email: ANNA,
    email_verified: true,
    given_name: "Anna",
    family_name: "Berg",
    groups: ["opticians", "lens-admins"],
  },
  "kim@contoso.example": { email: "kim@contoso.example", tid: TENANT },
  "lea@optik-muster.example": { email: "lea@optik-muster.example", email_verified: true, hd: "optik-muster.example" },
  "sam@gmail.example": { email: "sam@gmail.example", email_verified: true },
};

let lens: UpstreamIdp;
let rival: UpstreamIdp;
let thin: UpstreamIdp;
let entra: UpstreamIdp;

function configFor(idp: UpstreamIdp, changes: Partial<CompanySsoConfig> = {}): CompanySsoConfig {
  return {
    companyId: "company-lens-works",
    issuer: idp.issuer,
    clientId: "optigate",
    clientSecret: "optigate-secret",
    authMethod: "client_secret_basic",
    scope: "openid email profile",
    claims: { groups: "groups" },
    registeredByOperator: true,
    ...changes,
  };
}

/** Starts a sign-in and follows it through the provider's pages: what was kept, and where the person came back. */
async function signIn(
  config: CompanySsoConfig,
  person: UpstreamPerson = { login: ANNA },
  options: Partial<CompanySignInOptions> = {},
) {
  const { authorizationUrl, pending } = await startCompanySignIn(
    config,
    { redirectUri: REDIRECT_URI, ...options },
    RULES,
  );
  const callback = await signInAtUpstream(authorizationUrl, REDIRECT_URI, person);
  return { authorizationUrl: new URL(authorizationUrl), pending, callback };
}

/** What the promise rejects with: a CompanySignInFailed, by code and message. */
async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string; upstreamError?: string }> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CompanySignInFailed);
  const { code, message, upstreamError } = error as CompanySignInFailed;
  return { code, message, ...(upstreamError ? { upstreamError } : {}) };
}

/** A port on the loopback where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  vi.spyOn(console, "warn").mockImplementation(() => undefined); // node-oidc-provider warns about its development pages
  vi.spyOn(console, "info").mockImplementation(() => undefined);
  const options = { redirectUri: REDIRECT_URI, clients: CLIENTS, accounts: ACCOUNTS };
  [lens, rival, thin, entra] = await Promise.all([
    startUpstreamIdp(options),
    startUpstreamIdp(options),
    startUpstreamIdp({ ...options, thinIdTokens: true }),
    startUpstreamIdp({ ...options, tenant: TENANT }),
  ]);
});
afterAll(async () => {
  await Promise.all([lens, rival, thin, entra].map((idp) => idp?.close()));
});

describe("a sign-in at a company's identity provider", () => {
  it("asks with PKCE, state, nonce and the hints given, and returns the person's claims, amr and acr", async () => {
    const { authorizationUrl, pending, callback } = await signIn(
      configFor(lens),
      { login: ANNA, amr: ["pwd", "mfa"], acr: "urn:example:mfa" },
      { loginHint: ANNA, uiLocales: "de en", prompt: "login" },
    );
    expect(Object.fromEntries(authorizationUrl.searchParams)).toEqual({
      client_id: "optigate",
      response_type: "code",
      redirect_uri: REDIRECT_URI,
      scope: "openid email profile",
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: createHash("sha256").update(pending.codeVerifier).digest("base64url"),
      code_challenge_method: "S256",
      login_hint: ANNA,
      ui_locales: "de en",
      prompt: "login",
    });
    expect(callback.searchParams.get("iss")).toBe(lens.issuer);
    expect(await finishCompanySignIn(configFor(lens), pending, callback, RULES)).toEqual({
      issuer: lens.issuer,
      subject: ANNA,
      email: ANNA,
      emailVerified: true,
      givenName: "Anna",
      familyName: "Berg",
      groups: ["opticians", "lens-admins"],
      amr: ["pwd", "mfa"],
      acr: "urn:example:mfa",
    });
  });

  it("authenticates with client_secret_post, and reads only the callback's query", async () => {
    const config = configFor(lens, { clientId: "optigate-post", clientSecret: "optigate-post-secret" });
    const { pending, callback } = await signIn({ ...config, authMethod: "client_secret_post" });
    // Behind a proxy the callback may be seen under another host: the redirect_uri sent is the request's.
    const seenInside = new URL(`http://10.0.0.5:3000/login/sso/callback${callback.search}`);
    const identity = await finishCompanySignIn(
      { ...config, authMethod: "client_secret_post" },
      pending,
      seenInside,
      RULES,
    );
    expect(identity).toMatchObject({ subject: ANNA, emailVerified: true });
  });

  it("asks userinfo for the email and names a thin ID token lacks", async () => {
    const before = thin.requests.filter((path) => path === "/me").length;
    const { pending, callback } = await signIn(configFor(thin));
    expect(await finishCompanySignIn(configFor(thin), pending, callback, RULES)).toMatchObject({
      issuer: thin.issuer,
      email: ANNA,
      emailVerified: true,
      givenName: "Anna",
      familyName: "Berg",
    });
    expect(thin.requests.filter((path) => path === "/me").length).toBe(before + 1);
  });

  it("reports the provider's refusal of OptiGate's client secret", async () => {
    const { pending, callback } = await signIn(configFor(lens));
    const config = configFor(lens, { clientSecret: "an-old-secret" });
    expect(await failure(finishCompanySignIn(config, pending, callback, RULES))).toEqual({
      code: "provider_error",
      upstreamError: "invalid_client",
      message: "the provider answered invalid_client",
    });
  });

  it("discovers a provider once per registration, not per sign-in", async () => {
    const config = configFor(lens, { clientSecret: "discovered-once" });
    const discoveries = () => lens.requests.filter((path) => path === "/.well-known/openid-configuration").length;
    const before = discoveries();
    await startCompanySignIn(config, { redirectUri: REDIRECT_URI }, RULES);
    await startCompanySignIn(config, { redirectUri: REDIRECT_URI }, RULES);
    expect(discoveries()).toBe(before + 1);
  });
});

describe("the provider's own answers", () => {
  it("passes on access_denied when the person cancels at the provider", async () => {
    const { pending, callback } = await signIn(configFor(lens), { login: ANNA, abort: true });
    expect(await failure(finishCompanySignIn(configFor(lens), pending, callback, RULES))).toEqual({
      code: "provider_error",
      upstreamError: "access_denied",
      message: "the provider answered access_denied",
    });
  });

  it("passes prompt=none on, and login_required back when there is no session there", async () => {
    const { authorizationUrl, pending, callback } = await signIn(configFor(lens), { login: ANNA }, { prompt: "none" });
    expect(authorizationUrl.searchParams.get("prompt")).toBe("none");
    expect(await failure(finishCompanySignIn(configFor(lens), pending, callback, RULES))).toMatchObject({
      code: "provider_error",
      upstreamError: "login_required",
    });
  });

  it("reports a provider that is down as unreachable", async () => {
    const config = configFor(lens, { issuer: `http://127.0.0.1:${await closedPort()}` });
    expect(await failure(startCompanySignIn(config, { redirectUri: REDIRECT_URI }, RULES))).toEqual({
      code: "provider_unreachable",
      message: expect.stringMatching(/could not be reached \(ECONNREFUSED\)$/),
    });
  });
});

describe("answers OptiGate refuses", () => {
  it("refuses a provider whose discovery names another issuer than the one registered", async () => {
    for (const issuer of [`${lens.issuer}/`, `${entra.template.replace("{tenantid}", "organizations")}`]) {
      expect(
        await failure(startCompanySignIn(configFor(lens, { issuer }), { redirectUri: REDIRECT_URI }, RULES)),
      ).toEqual({
        code: "invalid_response",
        message: expect.stringMatching(/^the provider's issuer is .*, not /),
      });
    }
  });

  it("refuses an ID token for another client, or authorized for another party", async () => {
    const edits = [
      (claims: Record<string, unknown>) => ({ ...claims, aud: "someone-else" }),
      (claims: Record<string, unknown>) => ({ ...claims, aud: ["optigate", "someone-else"], azp: "someone-else" }),
    ];
    for (const [index, edit] of edits.entries()) {
      const { pending, callback } = await signIn(configFor(lens));
      lens.tamper({ claims: edit });
      try {
        expect(await failure(finishCompanySignIn(configFor(lens), pending, callback, RULES))).toEqual({
          code: "invalid_response",
          message: expect.stringMatching(index === 0 ? /"aud"/ : /"azp"/),
        });
      } finally {
        lens.tamper();
      }
    }
  });

  it("refuses an unsigned ID token, and one signed with a key not in the provider's key set", async () => {
    for (const signer of ["none", "stranger"] as const) {
      const { pending, callback } = await signIn(configFor(lens));
      lens.tamper({ signer });
      try {
        expect(await failure(finishCompanySignIn(configFor(lens), pending, callback, RULES))).toEqual({
          code: "invalid_response",
          message: expect.stringMatching(signer === "none" ? /"alg"/ : /signature/),
        });
      } finally {
        lens.tamper();
      }
    }
  });

  it("refuses an ID token with another nonce", async () => {
    const { pending, callback } = await signIn(configFor(lens));
    expect(
      await failure(finishCompanySignIn(configFor(lens), { ...pending, nonce: "another-nonce" }, callback, RULES)),
    ).toEqual({ code: "invalid_response", message: expect.stringMatching(/"nonce"/) });
  });

  it("refuses a callback with another state", async () => {
    const { pending, callback } = await signIn(configFor(lens));
    callback.searchParams.set("state", "forged-state");
    expect(await failure(finishCompanySignIn(configFor(lens), pending, callback, RULES))).toEqual({
      code: "invalid_response",
      message: expect.stringMatching(/"state"/),
    });
  });

  it("refuses a code from another company's provider (RFC 9207 mix-up), and a callback without iss", async () => {
    const started = await startCompanySignIn(configFor(lens), { redirectUri: REDIRECT_URI }, RULES);
    // The rival provider sends the person back with the state of the sign-in at the lens maker's provider.
    const atRival = new URL(
      (await startCompanySignIn(configFor(rival), { redirectUri: REDIRECT_URI }, RULES)).authorizationUrl,
    );
    atRival.searchParams.set("state", started.pending.state);
    const mixedUp = await signInAtUpstream(atRival.href, REDIRECT_URI, { login: ANNA });
    expect(mixedUp.searchParams.get("iss")).toBe(rival.issuer);
    expect(await failure(finishCompanySignIn(configFor(lens), started.pending, mixedUp, RULES))).toEqual({
      code: "invalid_response",
      message: expect.stringMatching(/"iss"/),
    });

    const { pending, callback } = await signIn(configFor(lens));
    callback.searchParams.delete("iss");
    expect(await failure(finishCompanySignIn(configFor(lens), pending, callback, RULES))).toEqual({
      code: "invalid_response",
      message: expect.stringMatching(/"iss"/),
    });
  });

  it("refuses a sign-in kept for another company, or started too long ago", async () => {
    const { pending, callback } = await signIn(configFor(lens));
    const otherCompany = configFor(lens, { companyId: "company-other" });
    expect(await failure(finishCompanySignIn(otherCompany, pending, callback, RULES))).toEqual({
      code: "invalid_response",
      message: "the sign-in was started for another company or provider",
    });
    const late = pending.createdAt + 16 * 60_000;
    expect(await failure(finishCompanySignIn(configFor(lens), pending, callback, RULES, late))).toEqual({
      code: "invalid_response",
      message: "the sign-in was started too long ago",
    });
  });
});

describe("what a registration may reach", () => {
  it("holds a company administrator's registration to public addresses, whatever OUTBOUND_ALLOW says", async () => {
    const before = lens.requests.length;
    const config = configFor(lens, { registeredByOperator: false });
    expect(await failure(startCompanySignIn(config, { redirectUri: REDIRECT_URI }, RULES))).toEqual({
      code: "provider_unreachable",
      message: expect.stringMatching(/is not at a public address \(127\.0\.0\.1 is loopback\)$/),
    });
    expect(lens.requests.length).toBe(before);
  });

  it("refuses an http issuer in production before any request", async () => {
    const before = lens.requests.length;
    const production = { ...RULES, production: true };
    expect(await failure(startCompanySignIn(configFor(lens), { redirectUri: REDIRECT_URI }, production))).toEqual({
      code: "misconfigured",
      message: "the issuer must use https",
    });
    expect(lens.requests.length).toBe(before);
  });
});

describe("an Entra ID-style multi-tenant issuer", () => {
  const KIM = "kim@contoso.example";

  it("accepts the company's tenant, and returns the tenant's concrete issuer", async () => {
    const config = configFor(entra, { issuer: entra.template, tenantId: TENANT });
    const { authorizationUrl, pending, callback } = await signIn(config, { login: KIM });
    expect(authorizationUrl.href.startsWith(`${entra.issuer}/auth?`)).toBe(true);
    expect(pending.issuer).toBe(entra.template);
    expect(await finishCompanySignIn(config, pending, callback, RULES)).toMatchObject({
      issuer: `${entra.template.replace("{tenantid}", TENANT)}`,
      subject: KIM,
      tid: TENANT,
      emailVerified: false,
    });
  });

  it("refuses another tenant's sign-in, and a token whose tid is not its issuer's tenant", async () => {
    const other = configFor(entra, { issuer: entra.template, tenantId: OTHER_TENANT });
    const first = await signIn(other, { login: KIM });
    expect(await failure(finishCompanySignIn(other, first.pending, first.callback, RULES))).toMatchObject({
      code: "invalid_response",
      message: expect.stringMatching(/"iss"/),
    });

    const config = configFor(entra, { issuer: entra.template, tenantId: TENANT });
    const { pending, callback } = await signIn(config, { login: KIM });
    entra.tamper({ claims: (claims) => ({ ...claims, tid: OTHER_TENANT }) });
    try {
      expect(await failure(finishCompanySignIn(config, pending, callback, RULES))).toEqual({
        code: "invalid_response",
        message: `the ID token's tid "${OTHER_TENANT}" is not the tenant ${TENANT}`,
      });
    } finally {
      entra.tamper();
    }
  });

  it("needs the company's tenant id for a template", async () => {
    const config = configFor(entra, { issuer: entra.template });
    expect(await failure(startCompanySignIn(config, { redirectUri: REDIRECT_URI }, RULES))).toEqual({
      code: "misconfigured",
      message: "an issuer with {tenantid} needs the company's tenant id",
    });
  });
});

describe("a Google Workspace-style hosted domain", () => {
  it("asks for the domain and accepts its accounts", async () => {
    const config = configFor(lens, { hostedDomain: "optik-muster.example" });
    const { authorizationUrl, pending, callback } = await signIn(config, { login: "lea@optik-muster.example" });
    expect(authorizationUrl.searchParams.get("hd")).toBe("optik-muster.example");
    expect(await finishCompanySignIn(config, pending, callback, RULES)).toMatchObject({
      email: "lea@optik-muster.example",
      hd: "optik-muster.example",
    });
  });

  it("refuses an account of another domain, or of none", async () => {
    const cases: [login: string, hostedDomain: string, message: string][] = [
      ["lea@optik-muster.example", "brillen-haus.example", `'s hd "optik-muster.example" is not the hosted domain`],
      ["sam@gmail.example", "optik-muster.example", " has no hd, and the hosted domain is"],
    ];
    for (const [login, hostedDomain, message] of cases) {
      const config = configFor(lens, { hostedDomain });
      const { pending, callback } = await signIn(config, { login });
      expect(await failure(finishCompanySignIn(config, pending, callback, RULES))).toEqual({
        code: "invalid_response",
        message: `the ID token${message} ${hostedDomain}`,
      });
    }
  });
});
