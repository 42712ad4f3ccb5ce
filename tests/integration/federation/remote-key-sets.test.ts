/**
 * Fetching partners' key sets from a real HTTP server on the loopback: size cap, content, redirects, the https and
 * public address rules in production, the minute between fetches, and the last good set kept when a refresh fails.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { KeySetUnavailable, forgetRemoteKeySets, remoteKeySet } from "@/lib/jwt/remote-key-sets";
import { KeySetServer, partnerKey } from "../../helpers/partner-keys";

const server = new KeySetServer();
const development = { production: false };

beforeAll(async () => {
  await server.start();
  server.keys = [(await partnerKey("ES256")).publicJwk];
});
afterEach(() => {
  forgetRemoteKeySets();
  server.behaviour = "serve";
  server.fetches = 0;
});
afterAll(() => server.close());

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(KeySetUnavailable);
  return (error as Error).message;
}

describe("remote key sets", () => {
  it.each<[typeof server.behaviour, RegExp]>([
    ["huge", /larger than 64 KB/],
    ["not-json", /not JSON/],
    ["redirect-other", /redirects to another host \(http:\/\/localhost\.example\)/],
    ["fail", /answered HTTP 500/],
  ])("refuses an answer that is %s: %s", async (behaviour, reason) => {
    server.behaviour = behaviour;
    expect(await failure(remoteKeySet(server.url, development))).toMatch(reason);
  });

  it("follows a redirect on the same host", async () => {
    server.behaviour = "redirect-same";
    expect((await remoteKeySet(server.url, development)).keys).toEqual(server.keys);
  });

  it("gives up on an answer whose body stops coming after 5 s, and says so", async () => {
    server.behaviour = "stall-body";
    const started = Date.now();
    expect(await failure(remoteKeySet(server.url, development))).toMatch(/no answer within 5 s/);
    expect(Date.now() - started).toBeLessThan(6500);
  }, 10_000);

  it("refuses a set with private keys or symmetric keys", async () => {
    server.keys = [{ ...server.keys[0], d: "secret-part" }];
    expect(await failure(remoteKeySet(server.url, development))).toMatch(/private member "d"/);
    forgetRemoteKeySets();
    server.keys = [{ kty: "oct", k: "c2VjcmV0" }];
    expect(await failure(remoteKeySet(server.url, development))).toMatch(/RSA, EC or OKP/);
    server.keys = [(await partnerKey("ES256")).publicJwk];
  });

  it("uses http only on the loopback outside production, and https only in production", async () => {
    expect(await failure(remoteKeySet(server.url, { production: true }))).toMatch(/not https/);
    expect(server.fetches).toBe(0);
    expect(await failure(remoteKeySet("http://192.0.2.1/jwks.json", development))).toMatch(
      /neither https nor http on a loopback host/,
    );
  });

  it("in production connects to public addresses only: a name resolving to the loopback and internal literals are refused", async () => {
    const port = new URL(server.url).port;
    const production = { production: true };
    const refusals: [string, RegExp][] = [
      // Not refused for its text: the check is on the address the name resolves to, where the socket connects.
      [
        `https://localhost:${port}/jwks.json`,
        /: it is not at a public address \(localhost resolves to (127\.0\.0\.1|::1), which is loopback\)$/,
      ],
      [
        "https://169.254.169.254/latest/meta-data/jwks",
        /: it is not at a public address \(169\.254\.169\.254 is link-local\)$/,
      ],
      [`https://127.0.0.1:${port}/jwks.json`, /: it is not at a public address \(127\.0\.0\.1 is loopback\)$/],
      [
        `https://[::ffff:127.0.0.1]:${port}/jwks.json`,
        /\(::ffff:7f00:1 is IPv4-mapped 127\.0\.0\.1, which is loopback\)$/,
      ],
      ["https://10.0.0.1/jwks.json", /\(10\.0\.0\.1 is private \(RFC 1918\)\)$/],
    ];
    for (const [url, reason] of refusals) {
      const message = await failure(remoteKeySet(url, production));
      expect(message, url).toMatch(reason);
      expect(message.startsWith(`jwks_uri ${url}: `), message).toBe(true);
    }
    expect(server.fetches).toBe(0);
    // Outside production the loopback serves, by name and by address: development and these tests use it.
    expect((await remoteKeySet(`http://localhost:${port}/jwks.json`, development)).keys).toEqual(server.keys);
    expect((await remoteKeySet(server.url, development)).keys).toEqual(server.keys);
    expect(server.fetches).toBe(2);
  });

  it("fetches at most once a minute, refreshes an hour-old set, and keeps the last good set when a refresh fails", async () => {
    const start = Date.now();
    await remoteKeySet(server.url, development, start);
    // A rotation right after the first load is seen; then the minute between refreshes holds.
    await remoteKeySet(server.url, { ...development, stale: true }, start + 1000);
    await remoteKeySet(server.url, { ...development, stale: true }, start + 2000);
    expect(server.fetches).toBe(2);
    await remoteKeySet(server.url, { ...development, stale: true }, start + 62_000);
    expect(server.fetches).toBe(3);
    await remoteKeySet(server.url, development, start + 120_000);
    expect(server.fetches).toBe(3);
    server.behaviour = "fail";
    const kept = await remoteKeySet(server.url, development, start + 3_700_000);
    expect([kept.keys, server.fetches]).toEqual([server.keys, 4]);
    // A first fetch that failed is not tried again within the minute either.
    forgetRemoteKeySets();
    await failure(remoteKeySet(server.url, development, start));
    await failure(remoteKeySet(server.url, development, start + 30_000));
    expect(server.fetches).toBe(5);
  });
});
