import { beforeAll, describe, expect, it } from "vitest";
import { serviceContextFor } from "@/lib/service-context";
import { loadConfig } from "@/lib/config";
import { prismaStores } from "@/lib/store/stores";
import { issueUserTokens } from "@/lib/oauth/token/issue-tokens";
import {
  authorizeWithConsent,
  basic,
  call,
  demoWeb,
  formRequest,
  ISSUER,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
let accessToken: string;
let profileOnlyToken: string;

async function tokensFor(scope: string, grant?: string[]): Promise<string> {
  const agent = new UserAgent();
  const { code } = await authorizeWithConsent(
    agent,
    {
      client_id: demoWeb.client_id,
      redirect_uri: demoWeb.redirect_uri,
      response_type: "code",
      scope,
      state: "s",
      prompt: "consent",
    },
    grant,
  );
  const response = await call(
    "token",
    formRequest(
      "/connect/token",
      { grant_type: "authorization_code", code, redirect_uri: demoWeb.redirect_uri },
      { Authorization: basic(demoWeb.client_id, demoWeb.secret) },
    ),
  );
  return (await response.json()).access_token;
}

/** An access token as the token endpoint would have made it at another time or for other scopes. */
async function craftedToken(scopes: string[], issuedAt: Date): Promise<string> {
  const db = service().database.db;
  const user = await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" }, include: { company: true } });
  const context = serviceContextFor(prismaStores(db), loadConfig());
  const body = await issueUserTokens(
    context,
    { client: (await prismaStores(db).clients.find("demo-web"))!, user, scopes, authTime: issuedAt, amr: ["pwd"] },
    issuedAt,
  );
  return body.access_token;
}

const userinfo = (init: RequestInit = {}) => call("userinfo", new Request(`${ISSUER}/connect/userinfo`, init));

beforeAll(async () => {
  accessToken = await tokensFor("openid profile email");
  profileOnlyToken = await tokensFor("openid profile email", ["openid", "profile"]);
});

describe(`GET|POST /connect/userinfo on ${testProvider()}`, () => {
  it("returns the claims of the granted scopes for a bearer token in the header", async () => {
    const response = await userinfo({ headers: { Authorization: `Bearer ${accessToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const user = await service().database.db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    expect(await response.json()).toEqual({
      sub: user.id,
      name: "Olivia Optik",
      given_name: "Olivia",
      family_name: "Optik",
      company: "Augenoptik Demo GmbH",
      email: "optician@demo.test",
      email_verified: true,
    });
  });

  it("leaves out what was not granted and accepts the token in a POST body", async () => {
    const response = await call("userinfo", formRequest("/connect/userinfo", { access_token: profileOnlyToken }));
    const claims = await response.json();
    expect(claims.given_name).toBe("Olivia");
    expect(claims.email).toBeUndefined();
  });

  it("asks for a token when there is none", async () => {
    const response = await userinfo();
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      'Bearer realm="OptiGate", DPoP algs="ES256 EdDSA RS256 PS256"',
    );
  });

  it.each([
    ["a malformed token", () => "not-a-jwt"],
    ["a token with a broken signature", () => `${accessToken.slice(0, -4)}AAAA`],
    ["an expired token", () => craftedToken(["openid", "profile"], new Date(Date.now() - 2 * 3600_000))],
  ])("answers %s with invalid_token", async (_name, makeToken) => {
    const response = await userinfo({ headers: { Authorization: `Bearer ${await makeToken()}` } });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(
      /^Bearer realm="OptiGate", error="invalid_token", error_description="/,
    );
  });

  it("answers a token without openid with insufficient_scope", async () => {
    const response = await userinfo({
      headers: { Authorization: `Bearer ${await craftedToken(["platform.catalogs.read"], new Date())}` },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toMatch(/error="insufficient_scope"/);
  });

  it("refuses a token sent in two places", async () => {
    const response = await call(
      "userinfo",
      formRequest("/connect/userinfo", { access_token: accessToken }, { Authorization: `Bearer ${accessToken}` }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_request");
  });

  it("answers invalid_token once the user is deactivated", async () => {
    const db = service().database.db;
    await db.user.update({ where: { email: "optician@demo.test" }, data: { active: false } });
    try {
      expect((await userinfo({ headers: { Authorization: `Bearer ${accessToken}` } })).status).toBe(401);
    } finally {
      await db.user.update({ where: { email: "optician@demo.test" }, data: { active: true } });
    }
  });
});
