/**
 * A partner's side of federation for the tests: signing keys of the assertion algorithms, JWTs signed with them, and
 * a real HTTP (or HTTPS) server on the loopback that serves a key set (rotating, failing, hanging, oversized or
 * redirecting on demand) and counts its fetches.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { LOOPBACK_TLS } from "./loopback-tls";

export type Algorithm = "RS256" | "PS256" | "ES256" | "EdDSA";

export interface PartnerKey {
  alg: Algorithm;
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function partnerKey(alg: Algorithm = "ES256", kid: string = randomUUID()): Promise<PartnerKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, alg === "EdDSA" ? { crv: "Ed25519" } : {});
  return { alg, kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

export const keySet = (...keys: PartnerKey[]) => ({ keys: keys.map((key) => key.publicJwk) });

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A backend client that authenticates with private_key_jwt against the key set at `jwksUri` (`clients add`). */
export const keysClient = (id: string, jwksUri: string) => ({
  client_id: id,
  grant_types: ["client_credentials"],
  token_endpoint_auth_method: "private_key_jwt",
  scope: "platform.catalogs.read",
  jwks_uri: jwksUri,
});

/** A JWT signed with the key; `kid` in the header unless `header.kid` says otherwise (null: none). */
export function signed(
  key: PartnerKey,
  claims: Record<string, unknown>,
  header: { kid?: string | null; typ?: string } = {},
): Promise<string> {
  const kid = header.kid === null ? undefined : (header.kid ?? key.kid);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, ...(kid ? { kid } : {}), ...(header.typ ? { typ: header.typ } : {}) })
    .sign(key.privateKey);
}

export type KeySetBehaviour =
  "serve" | "fail" | "hang" | "stall-body" | "huge" | "not-json" | "redirect-same" | "redirect-other";

/** Serves `keys` at /jwks.json; `fetches` counts the requests for it. `tls`: over https (tests/helpers/loopback-tls.ts). */
export class KeySetServer {
  keys: JWK[] = [];
  behaviour: KeySetBehaviour = "serve";
  fetches = 0;
  private server?: Server;

  constructor(private readonly options: { tls?: boolean } = {}) {}

  get url(): string {
    const scheme = this.options.tls ? "https" : "http";
    return `${scheme}://127.0.0.1:${(this.server!.address() as AddressInfo).port}/jwks.json`;
  }

  async start(): Promise<this> {
    const handle = (request: IncomingMessage, response: ServerResponse) => {
      if (request.url === "/moved.json") return this.serve(response);
      this.fetches++;
      switch (this.behaviour) {
        case "fail":
          return response.writeHead(500).end("down");
        case "hang":
          return; // never answers
        case "stall-body":
          return void response.writeHead(200, { "content-type": "application/json" }).write('{"keys": ['); // never ends
        case "huge":
          return response
            .writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ keys: this.keys, padding: "x".repeat(70 * 1024) }));
        case "not-json":
          return response.writeHead(200, { "content-type": "text/html" }).end("<html>keys</html>");
        case "redirect-same":
          return response.writeHead(302, { location: "/moved.json" }).end();
        case "redirect-other":
          return response.writeHead(302, { location: "http://localhost.example/jwks.json" }).end();
        default:
          return this.serve(response);
      }
    };
    this.server = this.options.tls ? createHttpsServer(LOOPBACK_TLS, handle) : createServer(handle);
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return this;
  }

  private serve(response: ServerResponse): void {
    response.writeHead(200, { "content-type": "application/jwk-set+json" }).end(JSON.stringify({ keys: this.keys }));
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
