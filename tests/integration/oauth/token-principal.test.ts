/**
 * Who a token stands for (security review 4, finding 1): a client's own token never stands for a person whose id
 * the client shares. The collision is made the other way round here (a person given the id of demo-backend), as a
 * client registered before the registration rule could have it; every consumer of tokens is asked about its token.
 * Registration refuses such ids from now on: a person's id, and from vendors any id shaped like a generated one.
 */
import { prismaStores } from "@/lib/store/stores";
import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import { basic, call, formRequest, useOAuthService } from "../../helpers/oauth-service";
import { api, clientToken } from "../../helpers/platform-api";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const SHARED_ID = "demo-backend";

async function silentLogin(headers: Record<string, string>) {
  const { POST } = await import("@/app/services/login/SilentLogin/route");
  return POST(formRequest("/services/login/SilentLogin", {}, headers));
}

let token: string;

beforeAll(async () => {
  const supplier = await db().user.findUniqueOrThrow({ where: { email: "supplier@demo.test" } });
  await db().user.create({
    data: {
      id: SHARED_ID,
      companyId: supplier.companyId,
      email: "namesake@demo.test",
      givenName: "Name",
      familyName: "Sake",
      passwordHash: supplier.passwordHash,
    },
  });
  token = await clientToken("demo-backend", "demo-backend-secret", "platform.catalogs.read");
});

describe(`a client's token and a person of the same id on ${testProvider()}`, () => {
  it("marks the client's token as its own: gty client_credentials, sub and client_id the client", () => {
    expect(decodeJwt(token)).toMatchObject({ sub: SHARED_ID, client_id: SHARED_ID, gty: "client_credentials" });
  });

  it("SilentLogin gives no ticket for the namesake", async () => {
    const response = await silentLogin({ Authorization: `Bearer ${token}` });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: "invalid_grant" });
    expect(await db().ticket.count({ where: { userId: SHARED_ID } })).toBe(0);
  });

  it("introspection describes a client's token, not an active person", async () => {
    const response = await call(
      "introspect",
      formRequest("/connect/introspect", { token }, { authorization: basic("demo-backend", "demo-backend-secret") }),
    );
    const body = await response.json();
    expect(body).toMatchObject({ active: true, client_id: SHARED_ID, gty: "client_credentials" });
    expect(body.company_id).toBeUndefined();
    expect(body.role).toBeUndefined();
  });

  it("userinfo refuses the client's token as standing for nobody", async () => {
    const { GET } = await import("@/app/connect/userinfo/route");
    const response = await GET(
      new Request("http://localhost:3000/connect/userinfo", { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(response.status).toBe(401);
    expect((await response.json()).error_description).toMatch(/client acting for itself/);
  });

  it("the platform API acts for the client, which has no company: the namesake's registrations stay closed", async () => {
    const { response } = await api("GET", "/v2/supplierregistrations", { token });
    expect(response.status).toBe(403);
  });
});

describe(`client ids that registration refuses on ${testProvider()}`, () => {
  it("refuses a person's id on the operator's path", async () => {
    const supplier = await db().user.findUniqueOrThrow({ where: { email: "supplier@demo.test" } });
    await expect(
      registerClient(
        prismaStores(db()),
        parseClientMetadata(
          { client_id: supplier.id, grant_types: ["client_credentials"], scope: "platform.catalogs.read" },
          "platform",
        ),
      ),
    ).rejects.toMatchObject({ code: "already_exists" });
    expect(await db().client.count({ where: { id: supplier.id } })).toBe(0);
  });
});
