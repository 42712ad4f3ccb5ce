/**
 * The peer of the token bench: node-oidc-provider configured like OptiGate's bench clients, run as a child process on
 * the server's core:
 *   peer-provider.ts <port> <ES256|RS256> <codes> <refresh tokens>
 * It issues JWT access tokens (RFC 9068) and ID tokens with the given algorithm, keeps grants, codes and refresh
 * tokens in memory (a Map: the library's own memory adapter is an LRU of 1,000 entries, too few for the codes of a
 * run), and prints one JSON line when it listens: refresh tokens granted openid offline_access and the API scope,
 * and authorization codes for the same grant.
 */
import { generateKeyPairSync } from "node:crypto";
import Provider, { type Adapter, type AdapterPayload } from "oidc-provider";

const [portArgument, algArgument, codesArgument, refreshTokensArgument] = process.argv.slice(2);
const alg = algArgument === "RS256" ? "RS256" : "ES256";
const port = Number(portArgument);
const issuer = `http://localhost:${port}`;
const API = "http://localhost/api";
export const PEER_API_SCOPE = "api.read";
export const PEER_REDIRECT_URI = "http://localhost:4000/callback";
const ACCOUNT = "optician-1";

const stores = new Map<string, Map<string, AdapterPayload>>();
class MapAdapter implements Adapter {
  private readonly items: Map<string, AdapterPayload>;
  constructor(name: string) {
    this.items = stores.get(name) ?? new Map();
    stores.set(name, this.items);
  }
  async upsert(id: string, payload: AdapterPayload): Promise<void> {
    this.items.set(id, payload);
  }
  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.items.get(id);
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async findByUid(): Promise<undefined> {
    return undefined;
  }
  async consume(id: string): Promise<void> {
    const payload = this.items.get(id);
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string): Promise<void> {
    this.items.delete(id);
  }
  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [id, payload] of this.items) if (payload.grantId === grantId) this.items.delete(id);
  }
}

function signingKey(algorithm: "ES256" | "RS256") {
  const pair =
    algorithm === "ES256"
      ? generateKeyPairSync("ec", { namedCurve: "P-256" })
      : generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...pair.privateKey.export({ format: "jwk" }), kid: `peer-${algorithm}`, alg: algorithm, use: "sig" };
}

const provider = new Provider(issuer, {
  adapter: MapAdapter,
  clients: [
    {
      client_id: "backend",
      client_secret: "backend-secret",
      grant_types: ["client_credentials"],
      response_types: [],
      redirect_uris: [],
      scope: PEER_API_SCOPE,
    },
    {
      client_id: "web",
      client_secret: "web-secret",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      redirect_uris: [PEER_REDIRECT_URI],
      id_token_signed_response_alg: alg,
    },
  ],
  // RS256 is always published: OpenID Connect requires it for ID tokens unless a client asks otherwise.
  jwks: { keys: alg === "RS256" ? [signingKey("RS256")] : [signingKey("ES256"), signingKey("RS256")] },
  enabledJWA: { idTokenSigningAlgValues: ["RS256", "ES256"] },
  scopes: ["openid", "offline_access", PEER_API_SCOPE],
  claims: { openid: ["sub"] },
  findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  pkce: { required: () => false },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => API,
      useGrantedResource: async () => true,
      getResourceServerInfo: async () => ({
        scope: PEER_API_SCOPE,
        accessTokenFormat: "jwt",
        accessTokenTTL: 3600,
        jwt: { sign: { alg } },
      }),
    },
  },
  ttl: {
    AccessToken: 3600,
    ClientCredentials: 3600,
    IdToken: 3600,
    AuthorizationCode: 3600,
    RefreshToken: 365 * 86_400,
    Grant: 365 * 86_400,
  },
});
provider.on("server_error", (_ctx, error) => console.error(error));

async function grantFixtures(
  codeCount: number,
  refreshTokenCount: number,
): Promise<{ refreshTokens: string[]; codes: string[] }> {
  const client = await provider.Client.find("web");
  if (!client) throw new Error("the peer's web client is missing");
  const grant = new provider.Grant({ accountId: ACCOUNT, clientId: "web" });
  grant.addOIDCScope("openid offline_access");
  grant.addResourceScope(API, PEER_API_SCOPE);
  const grantId = await grant.save();
  const scope = `openid offline_access ${PEER_API_SCOPE}`;
  const authTime = Math.floor(Date.now() / 1000);
  const refreshTokens: string[] = [];
  for (let index = 0; index < refreshTokenCount; index++) {
    refreshTokens.push(
      await new provider.RefreshToken({
        client,
        accountId: ACCOUNT,
        grantId,
        scope,
        resource: API,
        authTime,
        gty: "authorization_code",
      }).save(),
    );
  }
  const codes: string[] = [];
  for (let index = 0; index < codeCount; index++) {
    codes.push(
      await new provider.AuthorizationCode({
        client,
        accountId: ACCOUNT,
        grantId,
        scope: `openid ${PEER_API_SCOPE}`,
        redirectUri: PEER_REDIRECT_URI,
        resource: API,
        authTime,
        gty: "authorization_code",
      }).save(),
    );
  }
  return { refreshTokens, codes };
}

const fixtures = await grantFixtures(Number(codesArgument ?? 0), Number(refreshTokensArgument ?? 1));
provider.listen(port, () => console.log(JSON.stringify(fixtures)));
