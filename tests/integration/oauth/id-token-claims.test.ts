/**
 * The client metadata id_token_claims: off (the default), ID tokens carry no profile or email claims and clients
 * call userinfo (OIDC Core §5.4); on, the granted profile and email claims are in the ID token too, from the code
 * and refresh grants alike. A client registered without a path in its redirect URI may send it with "/" and back.
 */
import { prismaStores } from "@/lib/store/stores";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import {
  authorizeWithConsent,
  basic,
  call,
  demoWeb,
  formRequest,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const claimsApp = { client_id: "claims-app", redirect_uri: "https://claims.example", secret: "claims-app-secret" };
const SCOPE = "openid profile email offline_access";

const token = (client: { client_id: string; secret: string }, form: Record<string, string>) =>
  call("token", formRequest("/connect/token", form, { Authorization: basic(client.client_id, client.secret) }));

async function codeGrant(
  client: { client_id: string; secret: string },
  authorizeUri: string,
  tokenUri: string,
  scope = SCOPE,
) {
  const { code } = await authorizeWithConsent(new UserAgent(), {
    client_id: client.client_id,
    redirect_uri: authorizeUri,
    response_type: "code",
    scope,
    state: "s",
  });
  const response = await token(client, { grant_type: "authorization_code", code, redirect_uri: tokenUri });
  expect(response.status).toBe(200);
  return response.json();
}

beforeAll(async () => {
  const metadata = {
    client_id: claimsApp.client_id,
    redirect_uris: [claimsApp.redirect_uri],
    offline_access: true,
    id_token_claims: true,
    scope: SCOPE,
  };
  await registerClient(prismaStores(service().database.db), parseClientMetadata(metadata, "platform"), {
    value: claimsApp.secret,
  });
});

describe(`id_token_claims on ${testProvider()}`, () => {
  it("puts the granted profile and email claims into the ID tokens of the code and refresh grants", async () => {
    const tokens = await codeGrant(claimsApp, "https://claims.example/", "https://claims.example");
    const expected = {
      email: "optician@demo.test",
      email_verified: true,
      name: "Olivia Optik",
      given_name: "Olivia",
      family_name: "Optik",
      company: "Augenoptik Demo GmbH",
    };
    expect(decodeJwt(tokens.id_token)).toMatchObject(expected);
    const refreshed = await (
      await token(claimsApp, { grant_type: "refresh_token", refresh_token: tokens.refresh_token })
    ).json();
    expect(decodeJwt(refreshed.id_token)).toMatchObject(expected);
  });

  it("puts only the claims of the scopes granted", async () => {
    const tokens = await codeGrant(claimsApp, "https://claims.example", "https://claims.example/", "openid email");
    const idToken = decodeJwt(tokens.id_token);
    expect(idToken).toMatchObject({ email: "optician@demo.test" });
    expect(idToken).not.toHaveProperty("name");
  });

  it("leaves them to userinfo for a client that does not ask", async () => {
    const tokens = await codeGrant(demoWeb, demoWeb.redirect_uri, demoWeb.redirect_uri, "openid profile email");
    const idToken = decodeJwt(tokens.id_token);
    for (const claim of ["email", "name", "given_name", "company"]) expect(idToken).not.toHaveProperty(claim);
  });

  it("still refuses a token request whose redirect_uri differs beyond the empty path", async () => {
    const { code } = await authorizeWithConsent(new UserAgent(), {
      client_id: claimsApp.client_id,
      redirect_uri: claimsApp.redirect_uri,
      response_type: "code",
      scope: "openid",
      state: "s",
    });
    const response = await token(claimsApp, {
      grant_type: "authorization_code",
      code,
      redirect_uri: "https://claims.example/cb",
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_grant");
  });
});
