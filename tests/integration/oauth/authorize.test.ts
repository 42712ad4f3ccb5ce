import { describe, expect, it } from "vitest";
import {
  authorizeWithConsent,
  basic,
  call,
  callbackParams,
  demoWeb,
  formRequest,
  ISSUER,
  pkcePair,
  interactionOf,
  returnUrlOf,
  signedInAgent,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const base = {
  client_id: demoWeb.client_id,
  redirect_uri: demoWeb.redirect_uri,
  response_type: "code",
  scope: "openid profile",
  state: "xyz",
};

async function expectErrorPage(response: Response, text: RegExp) {
  expect(response.status).toBe(400);
  expect(response.headers.get("location")).toBeNull();
  expect(response.headers.get("content-type")).toContain("text/html");
  expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(await response.text()).toMatch(text);
}

function expectRedirectError(response: Response, error: string, state: string | null = "xyz", status = 302) {
  expect(response.status).toBe(status);
  const params = callbackParams(response);
  expect(params.get("error")).toBe(error);
  expect(params.get("error_description")).toBeTruthy();
  expect(params.get("state")).toBe(state);
  expect(params.get("iss")).toBe(ISSUER);
  return params;
}

describe(`GET /connect/authorize on ${testProvider()}: requests that must not be redirected`, () => {
  it("shows an error page for an unknown client, in the requested language", async () => {
    const agent = new UserAgent();
    await expectErrorPage(await agent.authorize({ ...base, client_id: "nobody" }), /not registered with OptiGate/);
    await expectErrorPage(
      await agent.authorize({ ...base, client_id: "nobody", ui_locales: "sv de" }),
      /lang="de"[\s\S]*nicht registriert/,
    );
    await expectErrorPage(
      await new UserAgent("de-DE,de;q=0.9").authorize({ ...base, client_id: "nobody" }),
      /lang="de"/,
    );
  });

  it.each([
    ["a missing client_id", { client_id: "" }, /client_id is missing/],
    ["a missing redirect_uri", { redirect_uri: "" }, /redirect_uri is missing/],
    ["another path", { redirect_uri: "http://localhost:4000/other" }, /redirect_uri is not registered/],
    ["an added query", { redirect_uri: "http://localhost:4000/callback?next=/" }, /redirect_uri is not registered/],
    ["another port", { redirect_uri: "http://localhost:4001/callback" }, /redirect_uri is not registered/],
    ["another scheme", { redirect_uri: "https://localhost:4000/callback" }, /redirect_uri is not registered/],
    ["a trailing slash", { redirect_uri: "http://localhost:4000/callback/" }, /redirect_uri is not registered/],
    [
      "a loopback URI for a web client",
      { redirect_uri: "http://127.0.0.1:4000/callback" },
      /redirect_uri is not registered/,
    ],
  ])("never redirects for %s", async (_name, override, text) => {
    await expectErrorPage(await new UserAgent().authorize({ ...base, ...override }), text);
  });

  it("never redirects when client_id or redirect_uri is repeated", async () => {
    const url = `${ISSUER}/connect/authorize?${new URLSearchParams(base)}&redirect_uri=${encodeURIComponent("https://evil.example/cb")}`;
    await expectErrorPage(await new UserAgent().authorizeUrl(url), /must not be repeated/);
  });

  it("accepts loopback redirect URIs on any port for native clients without registration", async () => {
    const { challenge } = pkcePair();
    const native = { ...base, client_id: "demo-native", code_challenge: challenge, code_challenge_method: "S256" };
    for (const redirect_uri of [
      "http://127.0.0.1:51234/callback",
      "http://[::1]:8080/",
      "com.example.demo:/callback",
    ]) {
      const response = await new UserAgent().authorize({ ...native, redirect_uri });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toMatch(/^\/login\?returnUrl=/);
    }
    await expectErrorPage(
      await new UserAgent().authorize({ ...native, redirect_uri: "http://localhost:51234/callback" }),
      /not registered/,
    );
  });

  // Characters a Location header cannot carry make no loopback URI (they made the error redirect fail with a 500).
  it.each(["http://127.0.0.1:8080/cb\n", "http://127.0.0.1:8080/€", "http://127.0.0.1:8080/a b"])(
    "refuses the loopback redirect URI %j on the error page",
    async (redirect_uri) => {
      const { challenge } = pkcePair();
      const native = { ...base, client_id: "demo-native", code_challenge: challenge, code_challenge_method: "S256" };
      await expectErrorPage(
        await new UserAgent().authorize({ ...native, redirect_uri, response_mode: "fragment", state: "" }),
        /not registered/,
      );
    },
  );
});

describe(`GET /connect/authorize on ${testProvider()}: errors sent to the client`, () => {
  const { challenge } = pkcePair();
  const spa = {
    ...base,
    client_id: "demo-spa",
    redirect_uri: "http://localhost:5173/callback",
    code_challenge: challenge,
    code_challenge_method: "S256",
  };

  it.each([
    ["a repeated parameter", `${new URLSearchParams(base)}&scope=email`, "invalid_request"],
    ["a missing response_type", new URLSearchParams({ ...base, response_type: "" }).toString(), "invalid_request"],
    [
      "an unsupported response_type",
      new URLSearchParams({ ...base, response_type: "code token" }).toString(),
      "unsupported_response_type",
    ],
    ["a missing scope", new URLSearchParams({ ...base, scope: "" }).toString(), "invalid_request"],
    [
      "a scope the client may not use",
      new URLSearchParams({ ...spa, scope: "openid platform.supplierreg.read" }).toString(),
      "invalid_scope",
    ],
    ["an unknown scope", new URLSearchParams({ ...base, scope: "openid admin" }).toString(), "invalid_scope"],
    [
      "offline_access for an online client",
      new URLSearchParams({ ...spa, scope: "openid offline_access" }).toString(),
      "invalid_scope",
    ],
    [
      "a public client without PKCE",
      new URLSearchParams({ ...spa, code_challenge: "", code_challenge_method: "" }).toString(),
      "invalid_request",
    ],
    ["PKCE plain", new URLSearchParams({ ...spa, code_challenge_method: "plain" }).toString(), "invalid_request"],
    [
      "a malformed code_challenge",
      new URLSearchParams({ ...spa, code_challenge: "short" }).toString(),
      "invalid_request",
    ],
    [
      "a code_challenge_method alone",
      new URLSearchParams({ ...base, code_challenge_method: "S256" }).toString(),
      "invalid_request",
    ],
    ["an unknown prompt", new URLSearchParams({ ...base, prompt: "always" }).toString(), "invalid_request"],
    [
      "prompt=none with another prompt",
      new URLSearchParams({ ...base, prompt: "none login" }).toString(),
      "invalid_request",
    ],
    ["a negative max_age", new URLSearchParams({ ...base, max_age: "-1" }).toString(), "invalid_request"],
    ["a request object", new URLSearchParams({ ...base, request: "eyJ.eyJ.sig" }).toString(), "request_not_supported"],
    [
      "a request_uri",
      new URLSearchParams({ ...base, request_uri: "https://x.example/r" }).toString(),
      "request_uri_not_supported",
    ],
    [
      "an unknown response_mode",
      new URLSearchParams({ ...base, response_mode: "web_message" }).toString(),
      "invalid_request",
    ],
    [
      "a client not registered for the code flow",
      new URLSearchParams({
        ...base,
        client_id: "demo-implicit",
        redirect_uri: "http://localhost:5174/callback",
      }).toString(),
      "unauthorized_client",
    ],
  ])("redirects %s back with the error, state and iss", async (_name, query, error) => {
    const response = await new UserAgent().authorizeUrl(`${ISSUER}/connect/authorize?${query}`);
    expectRedirectError(response, error);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("redirects a missing state as invalid_request without state", async () => {
    expectRedirectError(await new UserAgent().authorize({ ...base, state: "" }), "invalid_request", null);
  });

  it("answers prompt=none without a session with login_required", async () => {
    expectRedirectError(await new UserAgent().authorize({ ...base, prompt: "none" }), "login_required");
  });

  it("answers prompt=none with a session but no consent with consent_required", async () => {
    const agent = new UserAgent();
    const response = await agent.authorize(base);
    await agent.login(returnUrlOf(response), "optician@demo.test", "Optician#2026");
    expectRedirectError(await agent.authorize({ ...base, scope: "openid email", prompt: "none" }), "consent_required");
  });

  it("answers a bad id_token_hint with invalid_request", async () => {
    expectRedirectError(await new UserAgent().authorize({ ...base, id_token_hint: "not.a.token" }), "invalid_request");
  });

  it("sends errors in the fragment or as a form post when the response mode asks for it", async () => {
    const fragment = await new UserAgent().authorize({ ...base, scope: "", response_mode: "fragment" });
    expect(fragment.headers.get("location")).toMatch(/^http:\/\/localhost:4000\/callback#error=invalid_request&/);
    const formPost = await new UserAgent().authorize({ ...base, scope: "", response_mode: "form_post" });
    expect(formPost.status).toBe(200);
    const html = await formPost.text();
    expect(html).toContain('<form method="post" action="http://localhost:4000/callback">');
    expect(html).toContain('<input type="hidden" name="error" value="invalid_request">');
    expect(html).toContain('<input type="hidden" name="state" value="xyz">');
  });
});

describe(`GET|POST /connect/authorize on ${testProvider()}: the flow`, () => {
  it("sends a user without a session to the login page, ignoring unknown parameters, for GET and POST", async () => {
    const get = await new UserAgent().authorize({ ...base, unknown_extension: "ignored" });
    expect(get.status).toBe(302);
    // The flow carries on the parameters OptiGate acts on; unknown ones are ignored and left behind.
    expect(returnUrlOf(get)).toBe(`/connect/authorize?${new URLSearchParams(base)}`);
    const post = await call(
      "authorize",
      new Request(`${ISSUER}/connect/authorize`, {
        method: "POST",
        body: new URLSearchParams(base),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
    );
    expect(post.status).toBe(302);
    expect(post.headers.get("location")).toMatch(/^\/login\?returnUrl=/);
  });

  it("logs in, asks for consent, and redirects with code, state and iss", async () => {
    const agent = new UserAgent();
    const { response } = await authorizeWithConsent(agent, { ...base, state: "state-1" });
    expect(response.status).toBe(303);
    const params = callbackParams(response);
    expect(params.get("code")).toMatch(/^[\w-]{43}$/);
    expect(params.get("state")).toBe("state-1");
    expect(params.get("iss")).toBe(ISSUER);
    expect(response.headers.get("location")!.startsWith(`${demoWeb.redirect_uri}?`)).toBe(true);
  });

  it("remembers consent, but asks again for offline access and for prompt=consent", async () => {
    const agent = new UserAgent();
    await authorizeWithConsent(agent, base);
    const again = await agent.authorize(base);
    expect(callbackParams(again).get("code")).toBeTruthy();
    const offline = await agent.authorize({ ...base, scope: "openid offline_access" });
    expect(offline.headers.get("location")).toMatch(/^\/consent\?/);
    const prompted = await agent.authorize({ ...base, prompt: "consent" });
    expect(prompted.headers.get("location")).toMatch(/^\/consent\?/);
    const more = await agent.authorize({ ...base, scope: "openid profile email" });
    expect(more.headers.get("location")).toMatch(/^\/consent\?/);
  });

  it("gives single sign-on to a second client, which still needs its own consent", async () => {
    const agent = new UserAgent();
    await authorizeWithConsent(agent, base);
    const { challenge } = pkcePair();
    const spa = {
      ...base,
      client_id: "demo-spa",
      redirect_uri: "http://localhost:5173/callback",
      code_challenge: challenge,
      code_challenge_method: "S256",
    };
    const response = await agent.authorize(spa);
    expect(response.headers.get("location")).toMatch(/^\/consent\?/);
  });

  it("forces a fresh login for prompt=login and for an exceeded max_age", async () => {
    const agent = new UserAgent();
    await authorizeWithConsent(agent, base);
    const session = await service().database.db.loginSession.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    await service().database.db.loginSession.update({
      where: { id: session.id },
      data: { authTime: new Date(Date.now() - 120_000) },
    });
    expect((await agent.authorize({ ...base, prompt: "login" })).headers.get("location")).toMatch(/^\/login\?/);
    expect((await agent.authorize({ ...base, max_age: "60" })).headers.get("location")).toMatch(/^\/login\?/);
    expect(callbackParams(await agent.authorize({ ...base, max_age: "600" })).get("code")).toBeTruthy();

    // After the fresh login the flow continues without asking again.
    const forced = await agent.authorize({ ...base, prompt: "login", max_age: "0" });
    const loggedIn = await agent.login(returnUrlOf(forced), "optician@demo.test", "Optician#2026");
    const continued = new URL(loggedIn.headers.get("location")!, ISSUER);
    expect(continued.searchParams.get("prompt")).toBeNull();
    expect(continued.searchParams.get("max_age")).toBeNull();
    expect(callbackParams(await agent.authorizeUrl(continued.toString())).get("code")).toBeTruthy();
  });

  it("answers a denied consent with access_denied", async () => {
    const agent = new UserAgent();
    const start = await agent.authorize({ ...base, prompt: "consent" });
    const login = await agent.login(returnUrlOf(start), "optician@demo.test", "Optician#2026");
    const consentPage = await agent.authorizeUrl(login.headers.get("location")!);
    const denied = await agent.consent(interactionOf(consentPage), "deny", []);
    expectRedirectError(denied, "access_denied", "xyz", 303);
  });

  it("keeps openid when the user unticks it and grants only the ticked scopes", async () => {
    const agent = new UserAgent();
    const { code } = await authorizeWithConsent(agent, { ...base, scope: "openid profile email" }, ["email"]);
    const row = await service().database.db.authorizationCode.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    expect(code).toBeTruthy();
    expect(JSON.parse(row.scopes)).toEqual(["openid", "email"]);
    const consent = await service().database.db.consent.findFirstOrThrow({
      where: { clientId: "demo-web", userId: row.userId },
    });
    expect(JSON.parse(consent.scopes).sort()).toEqual(["email", "openid"]);
  });

  it("refuses consent and login forms without a valid CSRF token", async () => {
    const agent = new UserAgent();
    const start = await agent.authorize(base);
    const login = await agent.login(returnUrlOf(start), "optician@demo.test", "Optician#2026", {
      csrf_token: "forged",
    });
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toMatch(/error=form_expired/);
    await agent.login(returnUrlOf(start), "optician@demo.test", "Optician#2026");
    const consentPage = await agent.authorizeUrl(
      `/connect/authorize?${new URLSearchParams({ ...base, prompt: "consent" })}`,
    );
    const consent = await agent.consent(interactionOf(consentPage), "allow", ["email"], { csrf_token: "forged" });
    expect(consent.headers.get("location")).toMatch(/^\/consent\?.*error=form_expired/);
  });
});

describe(`consent on ${testProvider()}: only for the prompt authorize opened, after its login checks`, () => {
  const codesIssued = () => service().database.db.authorizationCode.count();

  async function expectNoCode(response: Response, before: number) {
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toMatch(/expired or was already answered/);
    expect(await codesIssued()).toBe(before);
  }

  it("cannot skip prompt=login and max_age=0 by posting the consent form directly", async () => {
    const agent = await signedInAgent("optician@demo.test", "Optician#2026");
    const forced = await agent.authorize({ ...base, prompt: "login", max_age: "0" });
    expect(forced.headers.get("location")).toMatch(/^\/login\?/);
    const before = await codesIssued();
    // The form as it was before prompts were bound to the server: the authorization request in returnUrl.
    const skipped = await agent.consent("", "allow", ["openid", "profile"], { returnUrl: returnUrlOf(forced) });
    await expectNoCode(skipped, before);
    await expectNoCode(await agent.consent("made-up-prompt-value", "allow", ["openid", "profile"]), before);
  });

  it("cannot skip the login an id_token_hint of another user asks for", async () => {
    const supplier = await signedInAgent("supplier@demo.test", "Supplier#2026");
    const start = await supplier.authorize({ ...base, prompt: "consent" });
    const decided = await supplier.consent(interactionOf(start), "allow", ["openid", "profile"]);
    const code = callbackParams(decided).get("code")!;
    const tokens = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "authorization_code", code, redirect_uri: base.redirect_uri },
        { authorization: basic(demoWeb.client_id, demoWeb.secret) },
      ),
    );
    const supplierIdToken = ((await tokens.json()) as { id_token: string }).id_token;

    const optician = await signedInAgent("optician@demo.test", "Optician#2026");
    const hinted = await optician.authorize({ ...base, prompt: "consent", id_token_hint: supplierIdToken });
    expect(hinted.headers.get("location")).toMatch(/^\/login\?/);
    const before = await codesIssued();
    await expectNoCode(
      await optician.consent("", "allow", ["openid", "profile"], { returnUrl: returnUrlOf(hinted) }),
      before,
    );
  });

  it("decides a prompt once, and only in the session it was opened for", async () => {
    const agent = await signedInAgent("optician@demo.test", "Optician#2026");
    const prompt = interactionOf(await agent.authorize({ ...base, prompt: "consent" }));
    const otherBrowser = await signedInAgent("optician@demo.test", "Optician#2026");
    const before = await codesIssued();
    await expectNoCode(await otherBrowser.consent(prompt, "allow", ["openid", "profile"]), before);
    expect(callbackParams(await agent.consent(prompt, "allow", ["openid", "profile"])).get("code")).toBeTruthy();
    await expectNoCode(await agent.consent(prompt, "allow", ["openid", "profile"]), before + 1);
  });
});
