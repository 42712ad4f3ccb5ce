/** The client store's contract: approved clients only, their secrets, CORS origins and logout URIs. */
import { describe, expect, it } from "vitest";
import { hashToken } from "@/lib/crypto/tokens";
import type { ClientRegistration } from "@/lib/store/models/client";
import { freshValue, NOW, type StoreBackend } from "./store-backend";

export const registration = (overrides: Partial<ClientRegistration> = {}): ClientRegistration => ({
  kind: "web",
  names: { default: "Contract Shop" },
  descriptions: {},
  grantTypes: ["authorization_code", "refresh_token"],
  responseTypes: ["code"],
  redirectUris: ["https://shop.example/callback"],
  postLogoutRedirectUris: [],
  corsOrigins: [],
  allowedScopes: ["openid", "profile", "offline_access"],
  allowedResources: [],
  tokenEndpointAuthMethod: "client_secret_basic",
  offlineAccess: true,
  refreshTokenPolicy: "reuse",
  frontchannelLogoutUri: null,
  backchannelLogoutUri: null,
  resourceServer: false,
  companyId: null,
  jwks: null,
  jwksUri: null,
  idTokenSignedResponseAlg: null,
  idTokenClaims: false,
  dpopBoundAccessTokens: false,
  requirePushedAuthorizationRequests: false,
  ...overrides,
});

export function clientContract(backend: StoreBackend): void {
  describe("clients", () => {
    it("finds an approved client with the hashes of its secrets, and no unknown one", async () => {
      const id = freshValue("shop");
      const allowedResources = ["https://orders.partner.example/v1"];
      await backend.addClient(
        id,
        registration({ names: { default: "Shop", de: "Laden" }, allowedResources }),
        "s3cret-value",
      );
      const client = await backend.stores().clients.find(id);
      expect(client).toMatchObject({ id, kind: "web", names: { default: "Shop", de: "Laden" }, ownerCompanyId: null });
      expect(client!.allowedResources).toEqual(allowedResources);
      expect(client!.secrets).toEqual([{ hash: hashToken("s3cret-value"), expiresAt: null }]);
      expect(await backend.stores().clients.find(freshValue("nobody"))).toBeNull();
    });

    it("collects the origins of browser clients, and tells only the clients with a logout URI", async () => {
      const spa = freshValue("spa");
      const origin = `https://${spa}.example`;
      await backend.addClient(
        spa,
        registration({ kind: "browser", tokenEndpointAuthMethod: "none", corsOrigins: [origin] }),
      );
      const web = freshValue("web");
      await backend.addClient(web, registration({ corsOrigins: ["https://not-a-browser-client.example"] }));
      const told = freshValue("told");
      await backend.addClient(told, registration({ backchannelLogoutUri: "https://told.example/logout" }));
      const clients = backend.stores().clients;
      const origins = await clients.corsOrigins(Date.now() + 3_600_000);
      expect(origins.has(origin)).toBe(true);
      expect(origins.has("https://not-a-browser-client.example")).toBe(false);
      expect(await clients.logoutUris([spa, web, told])).toEqual([
        {
          id: told,
          frontchannelLogoutUri: null,
          backchannelLogoutUri: "https://told.example/logout",
          idTokenSignedResponseAlg: null,
          ownerCompanyId: null,
        },
      ]);
    });

    it("records a secret's use without failing for a secret it does not know", async () => {
      const id = freshValue("used");
      await backend.addClient(id, registration(), "used-secret");
      await expect(backend.stores().clients.recordSecretUse(hashToken("used-secret"), NOW)).resolves.toBeUndefined();
      await expect(backend.stores().clients.recordSecretUse(hashToken("unknown"), NOW)).resolves.toBeUndefined();
    });
  });
}
