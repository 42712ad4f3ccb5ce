/**
 * Registering key set URLs in production (`npm run admin`, as operators do): a `jwks_uri` whose host is the loopback,
 * a private or link-local address or another non-public one is refused with the reason, for private_key_jwt clients
 * and trusted issuers alike, and nothing is written; outside production the loopback stays open for development.
 */
import { keysClient } from "../../helpers/partner-keys";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../helpers/admin-cli";
import { useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const directory = mkdtempSync(path.join(tmpdir(), "optigate-key-set-addresses-"));
let files = 0;

async function admin(production: boolean, args: string[], content?: unknown) {
  const file = path.join(directory, `${++files}.json`);
  if (content !== undefined) writeFileSync(file, JSON.stringify(content));
  const { code, stderr } = await runAdmin(service().database.db, content === undefined ? args : [...args, file], {
    production,
  });
  return { code, stderr };
}

const issuer = (jwksUri: string) => ({
  issuer: "https://as.lens-maker.example",
  jwks_uri: jwksUri,
  clients: ["fed-addresses"],
  subject: "email",
  email_domains: ["lens-maker.example"],
});
const counts = () => Promise.all([service().database.db.client.count(), service().database.db.trustedIssuer.count()]);

beforeAll(async () => {
  const federationClient = {
    client_id: "fed-addresses",
    grant_types: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
    scope: "platform.catalogs.read",
  };
  expect((await admin(false, ["clients", "add"], federationClient)).code).toBe(0);
});

describe(`key set URLs on public addresses only, in production, on ${testProvider()}`, () => {
  const refused: [string, string][] = [
    ["https://169.254.169.254/latest/meta-data/jwks", "169.254.169.254 is link-local"],
    ["https://localhost:5432/", "localhost is a loopback name"],
    ["https://127.0.0.1/jwks", "127.0.0.1 is loopback"],
    ["https://2130706433/jwks", "127.0.0.1 is loopback"],
    ["https://[::1]/jwks", "::1 is loopback"],
    ["https://10.1.2.3/jwks", "10.1.2.3 is private (RFC 1918)"],
    ["https://192.168.0.10/jwks", "192.168.0.10 is private (RFC 1918)"],
    ["https://100.64.0.1/jwks", "100.64.0.1 is shared address space (carrier-grade NAT, 100.64.0.0/10)"],
    ["https://0.0.0.0/jwks", '0.0.0.0 is "this network" (0.0.0.0/8)'],
    ["https://[fd00::1]/jwks", "fd00::1 is unique-local (fc00::/7)"],
    ["https://[fe80::1]/jwks", "fe80::1 is link-local"],
    ["https://[::ffff:169.254.169.254]/jwks", "::ffff:a9fe:a9fe is IPv4-mapped 169.254.169.254, which is link-local"],
    ["https://[ff02::1]/jwks", "ff02::1 is multicast"],
  ];

  it.each(refused)("refuses a client's jwks_uri %s: %s", async (url, reason) => {
    const before = await counts();
    const result = await admin(true, ["clients", "add"], keysClient("partner-internal", url));
    expect([result.code, result.stderr]).toEqual([
      1,
      expect.stringContaining(`jwks_uri "${url}" must be a public address: ${reason}`),
    ]);
    expect(result.stderr.endsWith(reason)).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it.each(refused)("refuses a trusted issuer's jwks_uri %s: %s", async (url, reason) => {
    const before = await counts();
    const result = await admin(true, ["federation", "add"], issuer(url));
    expect([result.code, result.stderr]).toEqual([
      1,
      expect.stringContaining(`jwks_uri "${url}" must be a public address: ${reason}`),
    ]);
    expect(await counts()).toEqual(before);
  });

  it("accepts a public host in production, and the loopback outside it", async () => {
    expect(
      (await admin(true, ["clients", "add"], keysClient("partner-public", "https://keys.partner.example/jwks"))).code,
    ).toBe(0);
    expect((await admin(true, ["federation", "add"], issuer("https://as.lens-maker.example/jwks"))).code).toBe(0);
    expect((await admin(false, ["clients", "add"], keysClient("partner-dev", "https://localhost:5432/"))).code).toBe(0);
    expect(
      (await admin(false, ["clients", "add"], keysClient("partner-dev-http", "http://127.0.0.1:3911/jwks"))).code,
    ).toBe(0);
    expect((await admin(false, ["federation", "add"], issuer("https://169.254.169.254/jwks"))).code).toBe(0);
  });
});
