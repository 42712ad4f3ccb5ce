/**
 * OUTBOUND_ALLOW under production rules: a private_key_jwt client's and a trusted issuer's key set on an internal
 * https server (a real one, on 127.0.0.1) are refused, when registered and when fetched, until the operator lists its
 * range; then they are registered and fetched, and the assertions signed with them verify. Addresses outside the
 * listed ranges stay refused.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { NO_ADDRESS_RANGES, parseAddressRanges, type AddressRanges } from "@/lib/config/address-ranges";
import { KeySetUnavailable, forgetRemoteKeySets, remoteKeySet } from "@/lib/jwt/remote-key-sets";
import { AssertionRefused } from "@/lib/jwt/signed-jwt";
import { verifyClientAssertion } from "@/lib/oauth/clients/client-assertion";
import { verifyFederatedAssertion } from "@/lib/oauth/federation/federated-assertion";
import { prismaStores } from "@/lib/store/stores";
import { runAdmin } from "../../helpers/admin-cli";
import { trustLoopbackCertificate } from "../../helpers/loopback-tls";
import { ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { KeySetServer, keysClient, nowSeconds, partnerKey, signed, type PartnerKey } from "../../helpers/partner-keys";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const server = new KeySetServer({ tls: true });
const LOOPBACK = parseAddressRanges("127.0.0.0/8");
const PARTNER = "https://as.lens-maker.internal";
const directory = mkdtempSync(path.join(tmpdir(), "optigate-outbound-allow-"));
let files = 0;
let key: PartnerKey;
let untrust: () => void;

function writeJson(content: unknown): string {
  const file = path.join(directory, `${++files}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

/** The operator CLI in production, with OUTBOUND_ALLOW as given. */
async function admin(args: string[], content: unknown, outboundAllow: AddressRanges = NO_ADDRESS_RANGES) {
  const { code, stderr } = await runAdmin(service().database.db, [...args, writeJson(content)], {
    production: true,
    outboundAllow,
  });
  return { code, stderr };
}

const issuer = (jwksUri: string) => ({
  issuer: PARTNER,
  jwks_uri: jwksUri,
  clients: ["internal-federation"],
  subject: "email",
  email_domains: ["demo.test"],
});
/** The service's context as a production deployment with OUTBOUND_ALLOW as given has it. */
const productionContext = (outboundAllow: AddressRanges) => ({
  config: { ...loadConfig(), production: true, outboundAllow },
  stores: prismaStores(service().database.db),
});

beforeAll(async () => {
  untrust = trustLoopbackCertificate();
  await server.start();
  key = await partnerKey("ES256");
  server.keys = [key.publicJwk];
  const federationClient = {
    client_id: "internal-federation",
    grant_types: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
    scope: "platform.catalogs.read",
  };
  expect((await runAdmin(service().database.db, ["clients", "add", writeJson(federationClient)])).code).toBe(0);
});
afterEach(() => {
  forgetRemoteKeySets();
  server.fetches = 0;
});
afterAll(async () => {
  await server.close();
  untrust();
});

describe(`OUTBOUND_ALLOW in production, on ${testProvider()}`, () => {
  it("registers key set URLs on internal addresses only within the listed ranges", async () => {
    const refused = await admin(["clients", "add"], keysClient("internal-keys", server.url));
    expect([refused.code, refused.stderr]).toEqual([
      1,
      expect.stringMatching(/must be a public address: 127\.0\.0\.1 is loopback$/),
    ]);
    expect((await admin(["federation", "add"], issuer(server.url))).stderr).toMatch(/127\.0\.0\.1 is loopback$/);

    expect((await admin(["clients", "add"], keysClient("internal-keys", server.url), LOOPBACK)).code).toBe(0);
    expect((await admin(["federation", "add"], issuer(server.url), LOOPBACK)).code).toBe(0);
    // The list opens what it names, nothing else.
    const outside = await admin(["clients", "add"], keysClient("other-keys", "https://10.1.2.3/jwks.json"), LOOPBACK);
    expect([outside.code, outside.stderr]).toEqual([1, expect.stringMatching(/10\.1\.2\.3 is private \(RFC 1918\)$/)]);
  });

  it("fetches the internal key set only within the listed ranges, checked where it connects", async () => {
    const refused = remoteKeySet(server.url, { production: true });
    await expect(refused).rejects.toBeInstanceOf(KeySetUnavailable);
    await expect(refused).rejects.toThrow(`${server.url}: it is not at a public address (127.0.0.1 is loopback)`);
    expect(server.fetches).toBe(0);
    forgetRemoteKeySets();
    expect((await remoteKeySet(server.url, { production: true, outboundAllow: LOOPBACK })).keys).toEqual(server.keys);
    expect(server.fetches).toBe(1);
    // A name is judged by the addresses it resolves to: localhost may be ::1 too, which the list does not hold.
    forgetRemoteKeySets();
    const byName = server.url.replace("127.0.0.1", "localhost");
    const both = parseAddressRanges("127.0.0.0/8, ::1/128");
    expect((await remoteKeySet(byName, { production: true, outboundAllow: both })).keys).toEqual(server.keys);
  });

  it("verifies a private_key_jwt client's assertion with keys from the internal server once its range is listed", async () => {
    const client = await prismaStores(service().database.db).clients.find("internal-keys");
    const assertion = () =>
      signed(key, {
        iss: "internal-keys",
        sub: "internal-keys",
        aud: `${ISSUER}/connect/token`,
        exp: nowSeconds() + 120,
        jti: randomUUID(),
      });
    await expect(
      verifyClientAssertion(productionContext(NO_ADDRESS_RANGES), client, await assertion()),
    ).rejects.toThrow(/client assertion refused: its signature cannot be verified/);
    expect(server.fetches).toBe(0);
    forgetRemoteKeySets();
    await expect(
      verifyClientAssertion(productionContext(LOOPBACK), client, await assertion()),
    ).resolves.toBeUndefined();
    expect(server.fetches).toBe(1);
  });

  it("verifies a trusted issuer's assertion (jwt-bearer) with keys from the internal server once its range is listed", async () => {
    const settings = (outboundAllow: AddressRanges) => ({
      stores: prismaStores(service().database.db),
      issuer: ISSUER,
      production: true,
      outboundAllow,
    });
    const assertion = () =>
      signed(key, {
        iss: PARTNER,
        sub: "p-1",
        aud: ISSUER,
        iat: nowSeconds(),
        exp: nowSeconds() + 300,
        jti: randomUUID(),
        email: "optician@demo.test",
        email_verified: true,
      });
    const audit = () => ({ type: "federation.token_issued" as const, details: {} });
    const refused = verifyFederatedAssertion(
      settings(NO_ADDRESS_RANGES),
      "internal-federation",
      await assertion(),
      audit,
    );
    await expect(refused).rejects.toThrow(AssertionRefused);
    await expect(refused).rejects.toThrow("the signer's keys cannot be had just now");
    forgetRemoteKeySets();
    const identity = await verifyFederatedAssertion(
      settings(LOOPBACK),
      "internal-federation",
      await assertion(),
      audit,
    );
    expect([identity.issuer, identity.user.email]).toEqual([PARTNER, "optician@demo.test"]);
  });
});
