/**
 * Anonymous pushes (security review 4, finding 8): anyone may push an authorization request for a public client, so
 * such pushes are limited per client network, and none is stored while too many wait already. Confidential clients
 * authenticate, and are not limited here.
 */
import { describe, expect, it } from "vitest";
import { MAX_WAITING_PUSHED_REQUESTS, PUBLIC_PUSH_LIMIT, PUBLIC_PUSH_WIDE_LIMIT } from "@/lib/config/policy";
import { basic, call, formRequest, pkcePair, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;

const REDIRECTS = { "demo-native": "com.example.demo:/callback", "demo-spa": "http://localhost:5173/callback" };

const push = (address: string, client: "demo-native" | "demo-spa" | "demo-web" = "demo-native") =>
  call(
    "par",
    formRequest(
      "/connect/par",
      {
        response_type: "code",
        scope: "openid",
        state: "s",
        code_challenge: pkcePair().challenge,
        code_challenge_method: "S256",
        ...(client === "demo-web"
          ? { redirect_uri: "http://localhost:4000/callback" }
          : { client_id: client, redirect_uri: REDIRECTS[client] }),
      },
      {
        "x-forwarded-for": address,
        ...(client === "demo-web" ? { authorization: basic("demo-web", "demo-web-secret") } : {}),
      },
    ),
  );

describe(`pushed requests for public clients on ${testProvider()}`, () => {
  it("takes a wider network's share too: a spread of addresses in one /24 gets 429", async () => {
    let refused = 0;
    for (let host = 1; host <= PUBLIC_PUSH_WIDE_LIMIT.max + 5; host++)
      if ((await push(`198.18.7.${host}`)).status === 429) refused++;
    expect(refused).toBe(5);
    expect((await push("198.18.8.1")).status).toBe(201);
  });

  it("takes a network's share in a minute, then answers 429 and stores nothing; other networks go on", async () => {
    for (let index = 0; index < PUBLIC_PUSH_LIMIT.max; index++) expect((await push("203.0.113.5")).status).toBe(201);
    const before = await db().pushedAuthorizationRequest.count();
    const refused = await push("203.0.113.5");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: "invalid_request" });
    expect(await db().pushedAuthorizationRequest.count()).toBe(before);
    expect((await push("198.51.100.99")).status).toBe(201);
    expect((await push("203.0.113.5", "demo-web")).status).toBe(201);
  });

  it("stores no anonymous push while the waiting ones reach the bound", async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const waiting = await db().pushedAuthorizationRequest.count({
      where: { clientId: "demo-native", startedAt: null },
    });
    await db().pushedAuthorizationRequest.createMany({
      data: Array.from({ length: MAX_WAITING_PUSHED_REQUESTS - waiting }, (_, index) => ({
        idHash: `filler-${index}`,
        clientId: "demo-native",
        parameters: "{}",
        expiresAt,
      })),
    });
    expect((await push("192.0.2.77")).status).toBe(429);
    // Another public client's pushes are not held up by this one's.
    expect((await push("192.0.2.77", "demo-spa")).status).toBe(201);
    await db().pushedAuthorizationRequest.deleteMany({ where: { idHash: { startsWith: "filler-" } } });
    expect((await push("192.0.2.77")).status).toBe(201);
  });
});
