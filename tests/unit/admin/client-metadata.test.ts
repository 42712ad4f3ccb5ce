import { describe, expect, it } from "vitest";
import { ClientMetadataError, parseClientMetadata } from "@/lib/admin/client-metadata";
import { toClientMetadata } from "@/lib/admin/client-metadata-document";
import { demoClients } from "@/prisma/demo-data";
import { thrown } from "../../helpers/thrown";

const parse = (metadata: unknown) => parseClientMetadata(metadata, "platform");

const rejection = (metadata: unknown) => thrown(ClientMetadataError, () => parse(metadata));

const web = { redirect_uris: ["https://shop.example.com/callback"] };
const browser = {
  token_endpoint_auth_method: "none",
  redirect_uris: ["https://app.example.com/cb"],
  allowed_cors_origins: ["https://app.example.com"],
};
const backend = { grant_types: ["client_credentials"], scope: "platform.catalogs.read" };

describe("parseClientMetadata: kinds and defaults", () => {
  it("registers a server web client as confidential with the code grant and OpenID scopes", () => {
    expect(parse(web)).toMatchObject({
      kind: "web",
      tokenEndpointAuthMethod: "client_secret_basic",
      grantTypes: ["authorization_code"],
      responseTypes: ["code"],
      allowedScopes: ["openid", "profile", "email"],
      offlineAccess: false,
      refreshTokenPolicy: "reuse",
    });
  });

  it("rotates the refresh tokens of public clients, and reuses those of confidential clients unless they ask", () => {
    const native = { application_type: "native", redirect_uris: ["com.example.app:/cb"], offline_access: true };
    expect(parse(native).refreshTokenPolicy).toBe("rotate");
    expect(parse({ ...native, refresh_token_policy: "rotate" }).refreshTokenPolicy).toBe("rotate");
    expect(parse(browser).refreshTokenPolicy).toBe("rotate");
    expect(parse({ ...web, offline_access: true }).refreshTokenPolicy).toBe("reuse");
    expect(parse({ ...web, offline_access: true, refresh_token_policy: "rotate" }).refreshTokenPolicy).toBe("rotate");
  });

  it("puts the granted claims into ID tokens only when id_token_claims asks, and prints it back", () => {
    expect(parse(web).idTokenClaims).toBe(false);
    const registration = parse({ ...web, id_token_claims: true });
    expect(registration.idTokenClaims).toBe(true);
    expect(toClientMetadata({ ...registration, id: "c" })).toMatchObject({ id_token_claims: true });
    expect(toClientMetadata({ ...parse(web), id: "c" })).not.toHaveProperty("id_token_claims");
  });

  it("tells browser, native and backend clients apart", () => {
    expect(parse(browser).kind).toBe("browser");
    expect(parse({ application_type: "native", redirect_uris: ["com.example.app:/cb"] })).toMatchObject({
      kind: "native",
      tokenEndpointAuthMethod: "none",
    });
    expect(parse(backend)).toMatchObject({
      kind: "backend",
      tokenEndpointAuthMethod: "client_secret_basic",
      responseTypes: [],
      redirectUris: [],
    });
  });

  it("adds the refresh_token grant and offline_access scope for offline clients", () => {
    expect(parse({ ...web, offline_access: true })).toMatchObject({
      grantTypes: ["authorization_code", "refresh_token"],
      allowedScopes: ["openid", "profile", "email", "offline_access"],
    });
  });

  it("derives the implicit response types", () => {
    expect(parse({ ...browser, grant_types: ["implicit"] }).responseTypes).toEqual([
      "id_token token",
      "id_token",
      "token",
    ]);
  });

  it("keeps localized names and descriptions with their language tags", () => {
    const registration = parse({
      ...web,
      client_name: "Shop",
      "client_name#de": "Laden",
      "description#DE-at": "Servus",
    });
    expect(registration.names).toEqual({ default: "Shop", de: "Laden" });
    expect(registration.descriptions).toEqual({ "de-at": "Servus" });
  });

  it("names application_type for clients with redirect URIs only: a backend client has none to describe", () => {
    expect(toClientMetadata({ ...parse(web), id: "w" })).toMatchObject({ application_type: "web" });
    expect(toClientMetadata({ ...parse(browser), id: "b" })).toMatchObject({ application_type: "web" });
    expect(
      toClientMetadata({ ...parse({ application_type: "native", redirect_uris: ["com.example.app:/cb"] }), id: "n" }),
    ).toMatchObject({ application_type: "native" });
    expect(toClientMetadata({ ...parse(backend), id: "s" })).not.toHaveProperty("application_type");
  });

  it("accepts every demo client and round-trips through client metadata", () => {
    for (const { metadata } of demoClients("platform")) {
      const registration = parse(metadata);
      const again = parse(toClientMetadata({ ...registration, id: registration.id! }));
      expect(again).toEqual(registration);
    }
  });

  it("accepts loopback http redirect URIs for every kind and private-use schemes for native clients", () => {
    expect(
      parse({ redirect_uris: ["http://localhost:4000/cb", "http://127.0.0.1/cb", "http://[::1]:8080/cb"] })
        .redirectUris,
    ).toHaveLength(3);
    expect(parse({ application_type: "native", redirect_uris: ["com.example.app:/oauth"] }).redirectUris).toEqual([
      "com.example.app:/oauth",
    ]);
  });
});

describe("parseClientMetadata: device clients (RFC 8628)", () => {
  const DEVICE = "urn:ietf:params:oauth:grant-type:device_code";
  const device = { grant_types: [DEVICE], token_endpoint_auth_method: "none", scope: "openid" };

  it("makes a public device-only client a native one that needs no redirect URI", () => {
    expect(parse(device)).toMatchObject({ kind: "native", tokenEndpointAuthMethod: "none", redirectUris: [] });
    expect(parse({ ...device, token_endpoint_auth_method: undefined, application_type: "native" }).kind).toBe("native");
    expect(parse({ ...device, offline_access: true })).toMatchObject({
      grantTypes: [DEVICE, "refresh_token"],
      refreshTokenPolicy: "rotate",
    });
  });

  it("makes a device client with a secret a confidential one, and takes the grant beside the code grant", () => {
    expect(parse({ grant_types: [DEVICE], scope: "openid" })).toMatchObject({
      kind: "web",
      tokenEndpointAuthMethod: "client_secret_basic",
    });
    expect(parse({ ...web, grant_types: ["authorization_code", DEVICE] }).grantTypes).toEqual([
      "authorization_code",
      DEVICE,
    ]);
  });

  it("still asks for redirect URIs once a browser grant is there, and keeps the grant from browser apps", () => {
    expect(rejection({ application_type: "native", grant_types: ["authorization_code", DEVICE] }).message).toMatch(
      /redirect_uris must list at least one/,
    );
    expect(rejection({ ...browser, grant_types: ["authorization_code", DEVICE] }).message).toMatch(
      /does not fit a browser client/,
    );
    expect(rejection({ ...device, refresh_token_policy: "reuse", offline_access: true }).message).toMatch(
      /not allowed for public clients/,
    );
  });

  it("round-trips through client metadata", () => {
    const registration = parse({ ...device, offline_access: true, scope: "openid offline_access" });
    expect(parse(toClientMetadata({ ...registration, id: "edger" }))).toEqual({ ...registration, id: "edger" });
  });
});

describe("parseClientMetadata: an unknown field with the field probably meant", () => {
  it.each([
    ["redirect_uri", 'unknown field "redirect_uri" (did you mean "redirect_uris"?)'],
    ["redirectUris", 'unknown field "redirectUris" (did you mean "redirect_uris"?)'],
    ["client_nam#de", 'unknown field "client_nam#de" (did you mean "client_name#de"?)'],
    ["descripton", 'unknown field "descripton" (did you mean "description"?)'],
    ["redirect_uris#de", 'unknown field "redirect_uris#de"'],
    ["colour", 'unknown field "colour"'],
  ])("%s", (field, message) => {
    expect(rejection({ ...web, [field]: "x" }).message).toBe(message);
  });
});

describe("parseClientMetadata: what a registrar refuses", () => {
  it.each([
    ["not an object", [], "invalid_client_metadata", "JSON object"],
    [
      "an unknown field",
      { ...web, redirect_uri: "https://x.example/cb" },
      "invalid_client_metadata",
      'unknown field "redirect_uri"',
    ],
    ["a relative redirect URI", { redirect_uris: ["/callback"] }, "invalid_redirect_uri", "absolute URI"],
    ["a fragment", { redirect_uris: ["https://a.example/cb#x"] }, "invalid_redirect_uri", "fragment"],
    ["plain http", { redirect_uris: ["http://shop.example.com/cb"] }, "invalid_redirect_uri", "must use https"],
    [
      "a private-use scheme for a web client",
      { redirect_uris: ["com.example.app:/cb"] },
      "invalid_redirect_uri",
      "native clients",
    ],
    [
      "a custom scheme that is no reverse domain",
      { application_type: "native", redirect_uris: ["myapp:/cb"] },
      "invalid_redirect_uri",
      "reverse domain",
    ],
    [
      "javascript: for a native client",
      { application_type: "native", redirect_uris: ["javascript:alert(1)"] },
      "invalid_redirect_uri",
      "reverse domain",
    ],
    ["no redirect URIs", { client_name: "x" }, "invalid_client_metadata", "redirect_uris must list at least one"],
    [
      "a duplicate redirect URI",
      { redirect_uris: ["https://a.example/cb", "https://a.example/cb"] },
      "invalid_client_metadata",
      "twice",
    ],
    [
      "a bad post-logout URI",
      { ...web, post_logout_redirect_uris: ["http://evil.example/"] },
      "invalid_redirect_uri",
      "post_logout_redirect_uris[0]",
    ],
    [
      "implicit for a web client",
      { ...web, grant_types: ["implicit"] },
      "invalid_client_metadata",
      'grant type "implicit" does not fit a web client',
    ],
    [
      "refresh tokens without offline access",
      { ...web, grant_types: ["authorization_code", "refresh_token"] },
      "invalid_client_metadata",
      'requires "offline_access": true',
    ],
    [
      "offline access for a browser client",
      { ...browser, offline_access: true },
      "invalid_client_metadata",
      "not for browser clients",
    ],
    [
      "a response type without its grant",
      { ...web, response_types: ["token"] },
      "invalid_client_metadata",
      'response type "token"',
    ],
    [
      "a public client_credentials client",
      { ...backend, token_endpoint_auth_method: "none" },
      "invalid_client_metadata",
      "confidential",
    ],
    [
      "client_credentials mixed with the code grant",
      { ...backend, grant_types: ["client_credentials", "authorization_code"] },
      "invalid_client_metadata",
      "does not fit a web client",
    ],
    [
      "openid for a backend client",
      { ...backend, scope: "openid platform.catalogs.read" },
      "invalid_client_metadata",
      'cannot have the scope "openid"',
    ],
    [
      "offline_access for a backend client",
      { ...backend, scope: "offline_access" },
      "invalid_client_metadata",
      "offline_access",
    ],
    [
      "a backend client without scope",
      { grant_types: ["client_credentials"] },
      "invalid_client_metadata",
      "scope is required",
    ],
    [
      "redirect URIs for a backend client",
      { ...backend, redirect_uris: ["https://a.example/cb"] },
      "invalid_client_metadata",
      "no redirect URIs",
    ],
    [
      "an unknown scope",
      { ...web, scope: "openid catalogs" },
      "invalid_client_metadata",
      'scope "catalogs" is unknown',
    ],
    [
      "offline_access scope without the flag",
      { ...web, scope: "openid offline_access" },
      "invalid_client_metadata",
      'requires "offline_access": true',
    ],
    [
      "a browser client without CORS origin",
      { ...browser, allowed_cors_origins: undefined },
      "invalid_client_metadata",
      "allowed_cors_origins must list",
    ],
    [
      "a CORS origin with a path",
      { ...browser, allowed_cors_origins: ["https://app.example.com/"] },
      "invalid_client_metadata",
      "origin only",
    ],
    [
      "a CORS origin with the default port",
      { ...browser, allowed_cors_origins: ["https://app.example.com:443"] },
      "invalid_client_metadata",
      "origin only",
    ],
    [
      "CORS origins for a web client",
      { ...web, allowed_cors_origins: ["https://a.example"] },
      "invalid_client_metadata",
      "browser clients only",
    ],
    [
      "a secret for a native client",
      {
        application_type: "native",
        token_endpoint_auth_method: "client_secret_post",
        redirect_uris: ["com.example.app:/cb"],
      },
      "invalid_client_metadata",
      "public",
    ],
    [
      "an unsupported auth method",
      { ...web, token_endpoint_auth_method: "tls_client_auth" },
      "invalid_client_metadata",
      "token_endpoint_auth_method must be one of",
    ],
    ["a bad client_id", { ...web, client_id: "a b" }, "invalid_client_metadata", "client_id must be"],
    ["a bad language tag", { ...web, "client_name#123": "x" }, "invalid_client_metadata", "invalid language tag"],
    ["an empty name", { ...web, client_name: " " }, "invalid_client_metadata", "non-empty string"],
    [
      "offline_access that is not a boolean",
      { ...web, offline_access: "yes" },
      "invalid_client_metadata",
      "true or false",
    ],
    [
      "rotation for an online client",
      { ...web, refresh_token_policy: "rotate" },
      "invalid_client_metadata",
      "offline clients only",
    ],
    [
      "reuse for a native client",
      {
        application_type: "native",
        redirect_uris: ["com.example.app:/cb"],
        offline_access: true,
        refresh_token_policy: "reuse",
      },
      "invalid_client_metadata",
      "not allowed for public clients",
    ],
    [
      "reuse for a browser client",
      { ...browser, refresh_token_policy: "reuse" },
      "invalid_client_metadata",
      "not allowed for public clients",
    ],
    [
      "id_token_claims that is not a boolean",
      { ...web, id_token_claims: "yes" },
      "invalid_client_metadata",
      "id_token_claims must be true or false",
    ],
    [
      "id_token_claims for a backend client",
      { ...backend, id_token_claims: true },
      "invalid_client_metadata",
      "not backend clients",
    ],
  ])("refuses %s", (_name, metadata, code, text) => {
    const error = rejection(metadata);
    expect(error.code).toBe(code);
    expect(error.message).toContain(text);
    expect(error.message).not.toContain("\n");
  });
});

describe("parseClientMetadata: logout URIs", () => {
  it.each([
    ["https://169.254.169.254/logout", "169.254.169.254 is link-local"],
    ["https://10.0.0.5/logout", "10.0.0.5 is private"],
    ["https://localhost:5432/", "localhost is a loopback name"],
  ])("refuses the back-channel URI %s in production: %s", (uri, reason) => {
    const error = thrown(ClientMetadataError, () =>
      parseClientMetadata({ ...web, backchannel_logout_uri: uri }, "platform", { production: true }),
    );
    expect(error.message).toContain(`backchannel_logout_uri "${uri}" must be a public address: ${reason}`);
  });

  it("takes a public back-channel URI in production, and a loopback one outside it", () => {
    const production = parseClientMetadata(
      { ...web, backchannel_logout_uri: "https://shop.example.com/logout" },
      "platform",
      { production: true },
    );
    expect(production.backchannelLogoutUri).toBe("https://shop.example.com/logout");
    expect(parse({ ...web, backchannel_logout_uri: "http://localhost:4000/logout" }).backchannelLogoutUri).toBe(
      "http://localhost:4000/logout",
    );
  });

  it("keeps front- and back-channel logout URIs of interactive clients", () => {
    expect(
      parse({
        ...web,
        frontchannel_logout_uri: "https://shop.example.com/fc",
        backchannel_logout_uri: "https://shop.example.com/bc",
      }),
    ).toMatchObject({
      frontchannelLogoutUri: "https://shop.example.com/fc",
      backchannelLogoutUri: "https://shop.example.com/bc",
    });
    expect(parse(web)).toMatchObject({ frontchannelLogoutUri: null, backchannelLogoutUri: null });
  });
  it("refuses them for backend clients and over plain http to other hosts", () => {
    expect(rejection({ ...backend, backchannel_logout_uri: "https://b.example/bc" }).message).toContain(
      "backend clients have no backchannel_logout_uri",
    );
    expect(rejection({ ...web, frontchannel_logout_uri: "http://shop.example.com/fc" }).message).toContain(
      "must use https",
    );
  });
});

describe("parseClientMetadata: resource servers and bounds", () => {
  it("marks confidential clients as resource servers on request, and only them", () => {
    expect(parse({ ...backend, resource_server: true })).toMatchObject({ resourceServer: true });
    expect(parse(backend)).toMatchObject({ resourceServer: false });
    expect(toClientMetadata({ ...parse({ ...backend, resource_server: true }), id: "rs" })).toMatchObject({
      resource_server: true,
    });
    expect(
      rejection({
        redirect_uris: ["https://spa.example/cb"],
        token_endpoint_auth_method: "none",
        allowed_cors_origins: ["https://spa.example"],
        resource_server: true,
      }).message,
    ).toContain("confidential");
    expect(rejection({ ...backend, resource_server: "yes" }).message).toContain("true or false");
  });

  it("takes the ID token algorithm of clients that receive ID tokens, and round-trips it", () => {
    expect(parse(web)).toMatchObject({ idTokenSignedResponseAlg: null });
    for (const alg of ["RS256", "ES256", "PS256"])
      expect(parse({ ...web, id_token_signed_response_alg: alg })).toMatchObject({ idTokenSignedResponseAlg: alg });
    expect(
      toClientMetadata({ ...parse({ ...browser, id_token_signed_response_alg: "ES256" }), id: "spa" }),
    ).toMatchObject({ id_token_signed_response_alg: "ES256" });
    expect(toClientMetadata({ ...parse(web), id: "web" })).not.toHaveProperty("id_token_signed_response_alg");
    for (const alg of ["none", "HS256", "rs256", 256])
      expect(rejection({ ...web, id_token_signed_response_alg: alg }).message).toContain(
        "id_token_signed_response_alg",
      );
    expect(rejection({ ...backend, id_token_signed_response_alg: "ES256" }).message).toContain("not backend clients");
  });

  it("refuses lists and URIs longer than any real registration needs", () => {
    expect(
      rejection({
        ...web,
        redirect_uris: Array.from({ length: 51 }, (_, index) => `https://shop.example.com/cb${index}`),
      }).message,
    ).toContain("at most 50");
    expect(rejection({ ...web, redirect_uris: [`https://shop.example.com/${"a".repeat(2000)}`] }).message).toContain(
      "at most 2000",
    );
    expect(rejection({ ...web, redirect_uris: ["https://shop.example.com/ü"] }).message).toContain("printable ASCII");
  });
});

describe("parseClientMetadata: private_key_jwt and the federation grants", () => {
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
    y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
    kid: "k1",
  };
  const keyed = { ...backend, token_endpoint_auth_method: "private_key_jwt" };

  it("takes the keys inline or as an https jwks_uri, and round-trips them", () => {
    const inline = parse({ ...keyed, jwks: { keys: [jwk] } });
    expect(inline).toMatchObject({
      kind: "backend",
      tokenEndpointAuthMethod: "private_key_jwt",
      jwks: { keys: [jwk] },
      jwksUri: null,
    });
    expect(toClientMetadata({ ...inline, id: "k" })).toMatchObject({ jwks: { keys: [jwk] } });
    expect(
      parse({ ...web, token_endpoint_auth_method: "private_key_jwt", jwks_uri: "https://shop.example.com/jwks" }),
    ).toMatchObject({ kind: "web", jwksUri: "https://shop.example.com/jwks" });
    expect(parse({ ...keyed, jwks_uri: "http://localhost:8080/jwks" }).jwksUri).toBe("http://localhost:8080/jwks");
  });

  it("refuses missing, doubled, private, symmetric and misplaced keys, and http elsewhere than the loopback", () => {
    expect(rejection(keyed).message).toContain("give either jwks or jwks_uri");
    expect(rejection({ ...keyed, jwks: { keys: [jwk] }, jwks_uri: "https://a.example/jwks" }).message).toContain(
      "give either jwks or jwks_uri",
    );
    expect(rejection({ ...keyed, jwks: { keys: [{ ...jwk, d: "secret" }] } }).message).toContain('private member "d"');
    expect(rejection({ ...keyed, jwks: { keys: [{ kty: "oct", k: "c2VjcmV0" }] } }).message).toContain(
      "RSA, EC or OKP",
    );
    expect(rejection({ ...keyed, jwks: { keys: [{ ...jwk, alg: "HS256" }] } }).message).toContain('alg "HS256"');
    expect(rejection({ ...keyed, jwks: { keys: [] } }).message).toContain("at least one key");
    expect(rejection({ ...keyed, jwks_uri: "http://keys.example/jwks" }).message).toContain("must use https");
    expect(rejection({ ...backend, jwks: { keys: [jwk] } }).message).toContain('"private_key_jwt"');
    expect(
      rejection({
        redirect_uris: ["http://127.0.0.1/cb"],
        application_type: "native",
        token_endpoint_auth_method: "private_key_jwt",
      }).message,
    ).toContain("public");
  });

  it("makes a client with only federation grants a backend client, and keeps them from public clients", () => {
    const grants = ["urn:ietf:params:oauth:grant-type:jwt-bearer", "urn:ietf:params:oauth:grant-type:token-exchange"];
    expect(parse({ grant_types: grants, scope: "platform.catalogs.read" })).toMatchObject({
      kind: "backend",
      grantTypes: grants,
      tokenEndpointAuthMethod: "client_secret_basic",
    });
    expect(parse({ ...web, grant_types: ["authorization_code", grants[0]] })).toMatchObject({ kind: "web" });
    expect(
      rejection({ grant_types: grants, token_endpoint_auth_method: "none", scope: "platform.catalogs.read" }).message,
    ).toContain("confidential");
    expect(
      rejection({
        redirect_uris: ["https://spa.example/cb"],
        token_endpoint_auth_method: "none",
        allowed_cors_origins: ["https://spa.example"],
        grant_types: ["authorization_code", grants[0]],
      }).message,
    ).toContain("does not fit a browser client");
  });
});
