import { createLocalJWKSet, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { accessTokenHash } from "@/lib/oauth/token/jwt-tokens";
import { authorizeWithConsent, callbackParams, ISSUER, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

useOAuthService();
const implicit = {
  client_id: "demo-implicit",
  redirect_uri: "http://localhost:5174/callback",
  scope: "openid profile email",
  state: "st",
  nonce: "nonce-1",
};

async function keys() {
  const { GET } = await import("@/app/.well-known/openid-configuration/jwks/route");
  return createLocalJWKSet(await (await GET(new Request(`${ISSUER}/jwks`))).json());
}

describe(`implicit flow on ${testProvider()}`, () => {
  it("returns an access token and an ID token with at_hash in the fragment", async () => {
    const { response } = await authorizeWithConsent(new UserAgent(), { ...implicit, response_type: "token id_token" });
    const location = response.headers.get("location")!;
    expect(location.startsWith("http://localhost:5174/callback#")).toBe(true);
    const params = callbackParams(response);
    expect(params.get("token_type")).toBe("Bearer");
    expect(params.get("expires_in")).toBe("3600");
    expect(params.get("state")).toBe("st");
    expect(params.get("iss")).toBe(ISSUER);
    expect(params.get("refresh_token")).toBeNull();
    expect(params.get("code")).toBeNull();
    const id = await jwtVerify(params.get("id_token")!, await keys(), { issuer: ISSUER, audience: "demo-implicit" });
    expect(id.payload.nonce).toBe("nonce-1");
    expect(id.payload.at_hash).toBe(accessTokenHash(params.get("access_token")!));
    expect(id.payload.email).toBeUndefined(); // with an access token, user data comes from userinfo
  });

  it("puts the user's claims into an ID token that comes alone, and returns only an access token for token", async () => {
    const agent = new UserAgent();
    const alone = callbackParams(
      (await authorizeWithConsent(agent, { ...implicit, response_type: "id_token" })).response,
    );
    expect(alone.get("access_token")).toBeNull();
    const id = await jwtVerify(alone.get("id_token")!, await keys(), { issuer: ISSUER, audience: "demo-implicit" });
    expect(id.payload).toMatchObject({ email: "optician@demo.test", given_name: "Olivia", nonce: "nonce-1" });
    expect(id.payload.at_hash).toBeUndefined();
    const tokenOnly = callbackParams(await agent.authorize({ ...implicit, response_type: "token" }));
    expect(tokenOnly.get("access_token")).toBeTruthy();
    expect(tokenOnly.get("id_token")).toBeNull();
  });

  it("answers in a form post when asked", async () => {
    const { response } = await authorizeWithConsent(new UserAgent(), {
      ...implicit,
      response_type: "id_token token",
      response_mode: "form_post",
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('action="http://localhost:5174/callback"');
    expect(html).toMatch(/name="access_token" value="[\w.-]+"/);
    expect(html).toMatch(/name="id_token" value="[\w.-]+"/);
  });

  it.each([
    ["no nonce", { response_type: "id_token token", nonce: "" }, "invalid_request"],
    ["tokens in the query", { response_type: "id_token token", response_mode: "query" }, "invalid_request"],
    ["an ID token without openid", { response_type: "id_token", scope: "profile" }, "invalid_scope"],
    ["the code flow for an implicit client", { response_type: "code" }, "unauthorized_client"],
  ])("refuses %s", async (_name, override, error) => {
    const response = await new UserAgent().authorize({ ...implicit, ...override });
    expect(callbackParams(response).get("error")).toBe(error);
  });

  it("refuses implicit to clients registered only for the code flow", async () => {
    const response = await new UserAgent().authorize({
      client_id: "demo-web",
      redirect_uri: "http://localhost:4000/callback",
      response_type: "id_token token",
      scope: "openid",
      state: "s",
      nonce: "n",
    });
    const location = response.headers.get("location")!;
    expect(location).toContain("#error=unauthorized_client");
  });
});
