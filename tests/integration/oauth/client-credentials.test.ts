import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { basic, call, formRequest, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

useOAuthService();
const backend = { Authorization: basic("demo-backend", "demo-backend-secret") };
const token = (form: Record<string, string>, headers: Record<string, string> = backend) =>
  call("token", formRequest("/connect/token", { grant_type: "client_credentials", ...form }, headers));

describe(`grant_type=client_credentials on ${testProvider()}`, () => {
  it("gives a backend client all its API scopes when none are asked for; the client is the subject", async () => {
    const response = await token({});
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toMatchObject({
      token_type: "Bearer",
      expires_in: 3600,
      scope: "platform.catalogs.read platform.supplierreg.readwrite",
    });
    expect(body.refresh_token).toBeUndefined();
    expect(body.id_token).toBeUndefined();
    const claims = decodeJwt(body.access_token);
    expect(claims).toMatchObject({
      sub: "demo-backend",
      client_id: "demo-backend",
      scope: "platform.catalogs.read platform.supplierreg.readwrite",
    });
    expect(claims.auth_time).toBeUndefined();
  });

  it("gives a requested subset and also accepts client_secret_post", async () => {
    const body = await (
      await token(
        { scope: "platform.catalogs.read", client_id: "demo-backend", client_secret: "demo-backend-secret" },
        {},
      )
    ).json();
    expect(body.scope).toBeUndefined();
    expect(decodeJwt(body.access_token).scope).toBe("platform.catalogs.read");
  });

  it.each([
    ["openid"],
    ["offline_access"],
    ["profile platform.catalogs.read"],
    ["platform.supplierreg.read"],
    ["unknown.scope"],
  ])("refuses scope %s with invalid_scope", async (scope) => {
    const response = await token({ scope });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_scope");
  });

  it("is refused to clients that are not registered for it", async () => {
    const web = await token({}, { Authorization: basic("demo-web", "demo-web-secret") });
    expect((await web.json()).error).toBe("unauthorized_client");
    const spa = await token({ client_id: "demo-spa" }, {});
    expect((await spa.json()).error).toBe("unauthorized_client");
  });
});
