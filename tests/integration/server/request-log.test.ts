/**
 * The request log line of a route handler (lib/server/guarded-handler.ts): the client where one authenticated or was
 * named, the user (by id, never by address) where a session or an access token identified one, and the caller's
 * address as the trusted proxies give it (here one: the entry before the last of X-Forwarded-For).
 */
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { logger } from "@/lib/observability/logger";
import { basic, call, formRequest, ISSUER, signedInAgent, useOAuthService } from "../../helpers/oauth-service";
import { api, userTokens } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

process.env.TRUSTED_PROXIES = "1";
useOAuthService();

let info: MockInstance;
beforeEach(() => {
  info = vi.spyOn(logger, "info");
});
afterEach(() => vi.restoreAllMocks());

/** The request lines logged so far in this test. */
const requestLines = () =>
  info.mock.calls.filter(([, message]) => message === "request").map(([line]) => line as Record<string, unknown>);

/** The one request line of the answer (by its X-Request-Id). */
function lineOf(response: Response): Record<string, unknown> {
  const lines = requestLines().filter((line) => line.requestId === response.headers.get("x-request-id"));
  expect(lines).toHaveLength(1);
  return lines[0];
}

const silentLogin = (request: Request) =>
  import("@/app/services/login/SilentLogin/route").then(({ POST }) => POST(request));

const OPTICIAN = "optician@demo.test";
const subjectOf = (idToken: string): string =>
  JSON.parse(Buffer.from(idToken.split(".")[1], "base64url").toString("utf8")).sub;

describe(`request log lines on ${testProvider()}`, () => {
  it("name the authenticated client and the address the trusted proxy saw; no user for a client's token", async () => {
    const response = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "client_credentials" },
        {
          authorization: basic("demo-backend", "demo-backend-secret"),
          "x-forwarded-for": "192.0.2.1, 198.51.100.1, 10.0.0.2",
        },
      ),
    );
    expect(response.status).toBe(200);
    const line = lineOf(response);
    expect(line).toMatchObject({ method: "POST", path: "/connect/token", status: 200, clientId: "demo-backend" });
    expect(line.clientAddress).toBe("198.51.100.1");
    // Undefined fields are left out of the JSON line; no trace while no OTLP endpoint is set.
    expect([line.userId, line.traceId]).toEqual([undefined, undefined]);
  });

  it("name the client of an authorization request and the user of its session", async () => {
    const agent = await signedInAgent(OPTICIAN, "Optician#2026");
    const { id_token } = await userTokens(OPTICIAN, "Optician#2026", "openid", agent);
    const response = await agent.authorize({
      client_id: "demo-web",
      redirect_uri: "http://localhost:4000/callback",
      response_type: "code",
      scope: "openid",
      state: "s",
    });
    expect(response.status).toBe(302);
    expect(lineOf(response)).toMatchObject({
      path: "/connect/authorize",
      clientId: "demo-web",
      userId: subjectOf(id_token!),
      clientAddress: agent.address,
    });
  });

  it("name the user whose code or refresh token the token endpoint redeemed", async () => {
    const tokens = await userTokens(OPTICIAN, "Optician#2026", "openid offline_access");
    const response = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "refresh_token", refresh_token: tokens.refresh_token! },
        { authorization: basic("demo-web", "demo-web-secret") },
      ),
    );
    expect(response.status).toBe(200);
    expect(lineOf(response)).toMatchObject({ clientId: "demo-web", userId: subjectOf(tokens.id_token!) });
    const redemptions = requestLines().filter((line) => line.path === "/connect/token");
    expect(redemptions.map((line) => line.userId)).toEqual([subjectOf(tokens.id_token!), subjectOf(tokens.id_token!)]);
  });

  it("name the user of an access token by id, never by e-mail address (userinfo, API, SilentLogin)", async () => {
    const tokens = await userTokens(OPTICIAN, "Optician#2026", "openid email platform.catalogs.read");
    const userId = subjectOf(tokens.id_token!);
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const responses = [
      await call("userinfo", new Request(`${ISSUER}/connect/userinfo`, { headers: bearer })),
      (await api("GET", "/v2/catalogs?limit=1", { token: tokens.access_token })).response,
      await silentLogin(new Request(`${ISSUER}/services/login/SilentLogin`, { method: "POST", headers: bearer })),
    ];
    for (const response of responses) {
      expect(response.status, response.url).toBe(200);
      expect(lineOf(response)).toMatchObject({ userId, clientId: "demo-web" });
    }
    for (const line of requestLines()) expect(JSON.stringify(line)).not.toContain(OPTICIAN);
  });
});
