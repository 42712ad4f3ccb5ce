/**
 * DPoP (RFC 9449) against the running server with oauth4webapi, in both serving modes: the compiled start script and
 * plain `next start`, where the issuer is another host than the one Next.js rebuilds request URLs with
 * (playwright.config.ts). Proofs name the endpoints as discovery does; a proof naming any other URL is refused.
 */
import * as oauth from "oauth4webapi";
import { expect, test } from "@playwright/test";
import { dpopProof, proofKey } from "../helpers/dpop-proofs";

const BACKEND = { client: { client_id: "demo-backend" }, auth: oauth.ClientSecretBasic("demo-backend-secret") };
const WEB = { client: { client_id: "demo-web" }, auth: oauth.ClientSecretBasic("demo-web-secret") };
const insecure = { [oauth.allowInsecureRequests]: true };

let as: oauth.AuthorizationServer;

test.beforeAll(async ({ baseURL }) => {
  const issuer = new URL(baseURL!);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
});

async function dpopHandle(client: oauth.Client): Promise<oauth.DPoPHandle> {
  return oauth.DPoP(client, await oauth.generateKeyPair("ES256"));
}

test("client_credentials with a DPoP proof gets a bound token, which the platform API accepts with a proof", async () => {
  const dpop = await dpopHandle(BACKEND.client);
  const options = { ...insecure, DPoP: dpop };
  const response = await oauth.clientCredentialsGrantRequest(
    as,
    BACKEND.client,
    BACKEND.auth,
    { scope: "platform.catalogs.read" },
    options,
  );
  const tokens = await oauth.processClientCredentialsResponse(as, BACKEND.client, response);
  expect(tokens.token_type).toBe("dpop");

  const catalogs = new URL("/v2/catalogs", as.issuer);
  const answer = await oauth.protectedResourceRequest(tokens.access_token, "GET", catalogs, undefined, null, options);
  expect(answer.status).toBe(200);
  expect(Array.isArray((await answer.json()).items)).toBe(true);
});

test("a pushed authorization request with a DPoP proof is accepted", async () => {
  const verifier = oauth.generateRandomCodeVerifier();
  const response = await oauth.pushedAuthorizationRequest(
    as,
    WEB.client,
    WEB.auth,
    {
      response_type: "code",
      redirect_uri: "http://localhost:4000/callback",
      scope: "openid",
      state: oauth.generateRandomState(),
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    },
    { ...insecure, DPoP: await dpopHandle(WEB.client) },
  );
  const pushed = await oauth.processPushedAuthorizationResponse(as, WEB.client, response);
  expect(pushed.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:/);
});

test("a proof naming another URL than the token endpoint is refused", async ({ request }) => {
  const proof = await dpopProof(await proofKey(), "POST", `${as.token_endpoint}/elsewhere`);
  const answer = await request.post(as.token_endpoint!, {
    headers: {
      authorization: `Basic ${Buffer.from("demo-backend:demo-backend-secret").toString("base64")}`,
      dpop: proof,
    },
    form: { grant_type: "client_credentials" },
  });
  expect(answer.status()).toBe(400);
  expect(await answer.json()).toMatchObject({ error: "invalid_dpop_proof" });
});
