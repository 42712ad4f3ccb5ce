import { describe, expect, it } from "vitest";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import { OAuthError } from "@/lib/errors/oauth-error";
import { JWT_BEARER_GRANT, TOKEN_EXCHANGE_GRANT } from "@/lib/oauth/grant-types";
import { validateTokenRequest, type TokenRequest } from "@/lib/oauth/token/token-request";
import { thrown } from "../../helpers/thrown";

const web = {
  grantTypes: ["authorization_code", "refresh_token"],
  tokenEndpointAuthMethod: "client_secret_basic",
} as ClientWithSecrets;
const backend = {
  grantTypes: ["client_credentials"],
  tokenEndpointAuthMethod: "client_secret_basic",
} as ClientWithSecrets;
const partner = {
  grantTypes: [JWT_BEARER_GRANT, TOKEN_EXCHANGE_GRANT],
  tokenEndpointAuthMethod: "private_key_jwt",
} as ClientWithSecrets;
const refused = (params: Record<string, string>, client: ClientWithSecrets) =>
  thrown(OAuthError, () => validateTokenRequest(new Map(Object.entries(params)), client));

const TOKEN_TYPE = "urn:ietf:params:oauth:token-type";
const exchange = { grant_type: TOKEN_EXCHANGE_GRANT, subject_token: "jwt", subject_token_type: `${TOKEN_TYPE}:jwt` };

describe("validateTokenRequest: what each grant needs, as a typed request", () => {
  it.each<[string, Record<string, string>, ClientWithSecrets, TokenRequest]>([
    [
      "authorization_code",
      { grant_type: "authorization_code", code: "c", redirect_uri: "https://a/cb", code_verifier: "v" },
      web,
      { grantType: "authorization_code", code: "c", redirectUri: "https://a/cb", codeVerifier: "v" },
    ],
    [
      "authorization_code without a verifier (an empty one counts as absent)",
      { grant_type: "authorization_code", code: "c", redirect_uri: "https://a/cb", code_verifier: "" },
      web,
      { grantType: "authorization_code", code: "c", redirectUri: "https://a/cb", codeVerifier: undefined },
    ],
    [
      "refresh_token",
      { grant_type: "refresh_token", refresh_token: "r", scope: "openid" },
      web,
      { grantType: "refresh_token", refreshToken: "r", scope: "openid" },
    ],
    [
      "client_credentials",
      { grant_type: "client_credentials" },
      backend,
      { grantType: "client_credentials", scope: undefined },
    ],
    [
      "jwt-bearer",
      { grant_type: JWT_BEARER_GRANT, assertion: "a.b.c", scope: "platform.catalogs.read" },
      partner,
      { grantType: JWT_BEARER_GRANT, assertion: "a.b.c", scope: "platform.catalogs.read" },
    ],
    [
      "token-exchange of a JWT",
      exchange,
      partner,
      {
        grantType: TOKEN_EXCHANGE_GRANT,
        subjectToken: "jwt",
        subjectTokenType: `${TOKEN_TYPE}:jwt`,
        scope: undefined,
        targets: [],
      },
    ],
    [
      "token-exchange of an ID token for an access token, with audience and resource",
      {
        ...exchange,
        subject_token_type: `${TOKEN_TYPE}:id_token`,
        requested_token_type: `${TOKEN_TYPE}:access_token`,
        audience: "https://api.example",
        resource: "https://api.example/v2",
        scope: "openid",
      },
      partner,
      {
        grantType: TOKEN_EXCHANGE_GRANT,
        subjectToken: "jwt",
        subjectTokenType: `${TOKEN_TYPE}:id_token`,
        scope: "openid",
        targets: ["https://api.example", "https://api.example/v2"],
      },
    ],
    [
      "token-exchange of an access token",
      { ...exchange, subject_token_type: `${TOKEN_TYPE}:access_token` },
      partner,
      {
        grantType: TOKEN_EXCHANGE_GRANT,
        subjectToken: "jwt",
        subjectTokenType: `${TOKEN_TYPE}:access_token`,
        scope: undefined,
        targets: [],
      },
    ],
  ])("%s", (_, params, client, request) => {
    expect(validateTokenRequest(new Map(Object.entries(params)), client)).toEqual(request);
  });
});

describe("validateTokenRequest: refusals", () => {
  it.each<[string, Record<string, string>, ClientWithSecrets, string, string]>([
    ["no grant type", {}, web, "invalid_request", "grant_type is missing"],
    ["an empty grant type", { grant_type: "" }, web, "invalid_request", "grant_type is missing"],
    [
      "the password grant",
      { grant_type: "password" },
      web,
      "unsupported_grant_type",
      'grant_type "password" is not supported',
    ],
    [
      "a grant named like an object member",
      { grant_type: "toString" },
      web,
      "unsupported_grant_type",
      'grant_type "toString" is not supported',
    ],
    [
      "a grant the client may not use",
      { grant_type: "client_credentials" },
      web,
      "unauthorized_client",
      'this client may not use grant_type "client_credentials"',
    ],
    [
      "a federation grant the client may not use",
      { grant_type: JWT_BEARER_GRANT, assertion: "a.b.c" },
      web,
      "unauthorized_client",
      `this client may not use grant_type "${JWT_BEARER_GRANT}"`,
    ],
    [
      "client_credentials for a public client",
      { grant_type: "client_credentials" },
      { ...backend, tokenEndpointAuthMethod: "none" },
      "unauthorized_client",
      "client_credentials is for confidential clients only",
    ],
    [
      "a code grant without code",
      { grant_type: "authorization_code", redirect_uri: "https://a/cb" },
      web,
      "invalid_request",
      "code is missing",
    ],
    [
      "a code grant with an empty code",
      { grant_type: "authorization_code", code: "", redirect_uri: "https://a/cb" },
      web,
      "invalid_request",
      "code is missing",
    ],
    [
      "a code grant without redirect_uri",
      { grant_type: "authorization_code", code: "c" },
      web,
      "invalid_request",
      "redirect_uri is missing",
    ],
    [
      "a refresh grant without refresh_token",
      { grant_type: "refresh_token" },
      web,
      "invalid_request",
      "refresh_token is missing",
    ],
    [
      "a jwt-bearer grant without assertion",
      { grant_type: JWT_BEARER_GRANT },
      partner,
      "invalid_request",
      "assertion is missing",
    ],
    [
      "an exchange without subject_token",
      { ...exchange, subject_token: "" },
      partner,
      "invalid_request",
      "subject_token is missing",
    ],
    [
      "an exchange without subject_token_type",
      { ...exchange, subject_token_type: "" },
      partner,
      "invalid_request",
      "subject_token_type is missing",
    ],
    [
      "an exchange of a refresh token",
      { ...exchange, subject_token_type: `${TOKEN_TYPE}:refresh_token` },
      partner,
      "invalid_request",
      `subject_token_type must be one of ${TOKEN_TYPE}:jwt, ${TOKEN_TYPE}:access_token, ${TOKEN_TYPE}:id_token`,
    ],
    [
      "an exchange with an actor_token",
      { ...exchange, actor_token: "jwt2" },
      partner,
      "invalid_request",
      "actor_token is not supported: the token is issued for the subject alone",
    ],
    [
      "an exchange with an actor_token_type",
      { ...exchange, actor_token_type: `${TOKEN_TYPE}:jwt` },
      partner,
      "invalid_request",
      "actor_token is not supported: the token is issued for the subject alone",
    ],
    [
      "an exchange for an ID token",
      { ...exchange, requested_token_type: `${TOKEN_TYPE}:id_token` },
      partner,
      "invalid_request",
      `requested_token_type must be ${TOKEN_TYPE}:access_token`,
    ],
  ])("refuses %s", (_, params, client, code, description) => {
    expect(refused(params, client)).toMatchObject({ code, description });
  });
});
