/**
 * A software vendor's client stays held to public addresses although OUTBOUND_ALLOW lists internal ranges: a vendor
 * registers its key set and back-channel logout URI under a public name and, once approved, points the name into a
 * listed range (here `localhost`, which resolves to the loopback). Under production rules both are refused where the
 * connection is made, while an operator's client with the very same URLs is served, whichever of them comes first.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { parseAddressRanges } from "@/lib/config/address-ranges";
import { forgetRemoteKeySets } from "@/lib/jwt/remote-key-sets";
import { verifyClientAssertion } from "@/lib/oauth/clients/client-assertion";
import { announceBackchannelLogout } from "@/lib/oauth/endsession/channel-logout";
import { forgetClient } from "@/lib/store/client-store";
import { prismaStores } from "@/lib/store/stores";
import { runAdmin } from "../../helpers/admin-cli";
import { trustLoopbackCertificate } from "../../helpers/loopback-tls";
import { ISSUER, useOAuthService } from "../../helpers/oauth-service";
import { KeySetServer, nowSeconds, partnerKey, signed, type PartnerKey } from "../../helpers/partner-keys";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const keySets = new KeySetServer({ tls: true });
/** The loopback, both families: `localhost` may resolve to either. */
const INTERNAL = parseAddressRanges("127.0.0.0/8,::1/128");
const directory = mkdtempSync(path.join(tmpdir(), "optigate-vendor-addresses-"));
const received: string[] = [];
let receiver: Server;
let key: PartnerKey;
let untrust: () => void;

/** Registers the client with the operator CLI in production; a vendor's is then handed to the vendor company. */
async function addClient(metadata: { client_id: string }, owner: "operator" | "vendor") {
  const file = path.join(directory, `${metadata.client_id}.json`);
  writeFileSync(file, JSON.stringify(metadata));
  const { db } = service().database;
  const added = await runAdmin(db, ["clients", "add", file], { production: true, outboundAllow: INTERNAL });
  expect(added.code, added.stderr).toBe(0);
  if (owner === "vendor") {
    // As if the vendor had registered it under a public name, been approved, then pointed the name at the loopback.
    await db.client.update({ where: { id: metadata.client_id }, data: { ownerCompanyId: "demo-company-vendor" } });
    forgetClient(metadata.client_id);
  }
}

/** The service's context as a production deployment with OUTBOUND_ALLOW listing the loopback has it. */
const productionContext = () => ({
  config: { ...loadConfig(), production: true, outboundAllow: INTERNAL },
  stores: prismaStores(service().database.db),
});

async function verify(clientId: string): Promise<void> {
  const client = await productionContext().stores.clients.find(clientId);
  expect(client).not.toBeNull();
  const jwt = await signed(key, {
    iss: clientId,
    sub: clientId,
    aud: `${ISSUER}/connect/token`,
    exp: nowSeconds() + 120,
    jti: randomUUID(),
  });
  return verifyClientAssertion(productionContext(), client, jwt);
}

beforeAll(async () => {
  untrust = trustLoopbackCertificate();
  await keySets.start();
  key = await partnerKey("ES256");
  keySets.keys = [key.publicJwk];
  receiver = createServer((request, response) => {
    received.push(request.url ?? "");
    response.writeHead(200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
});
afterEach(() => {
  forgetRemoteKeySets();
  keySets.fetches = 0;
});
afterAll(async () => {
  await keySets.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  untrust();
});

describe(`a software vendor's client under OUTBOUND_ALLOW, on ${testProvider()}`, () => {
  it("fetches the key set for the operator's client only, also when the operator's fetch is cached", async () => {
    const jwksUri = keySets.url.replace("127.0.0.1", "localhost");
    const keysClient = (id: string) => ({
      client_id: id,
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: "private_key_jwt",
      scope: "platform.catalogs.read",
      jwks_uri: jwksUri,
    });
    await addClient(keysClient("operator-keys"), "operator");
    await addClient(keysClient("vendor-keys"), "vendor");
    const refused = /client assertion refused: its signature cannot be verified/;

    await expect(verify("operator-keys")).resolves.toBeUndefined();
    // The set fetched under the operator's rules is not the vendor's to use.
    await expect(verify("vendor-keys")).rejects.toThrow(refused);
    expect(keySets.fetches).toBe(1);

    forgetRemoteKeySets();
    keySets.fetches = 0;
    await expect(verify("vendor-keys")).rejects.toThrow(refused);
    expect(keySets.fetches).toBe(0);
    // The vendor's refused fetch does not hold up the operator's client for the minute between fetches.
    await expect(verify("operator-keys")).resolves.toBeUndefined();
    expect(keySets.fetches).toBe(1);
  });

  it("posts the back-channel logout token to the operator's client only", async () => {
    const base = `http://localhost:${(receiver.address() as AddressInfo).port}`;
    const logoutClient = (id: string) => ({
      client_id: id,
      redirect_uris: ["https://rp.example/cb"],
      backchannel_logout_uri: `${base}/${id}`,
    });
    await addClient(logoutClient("operator-rp"), "operator");
    await addClient(logoutClient("vendor-rp"), "vendor");
    const { stores } = productionContext();
    const { db } = service().database;
    const userId = (await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } })).id;
    const sessionId = await stores.loginSessions.save(randomUUID(), userId, {}, new Date(), ["pwd"]);
    await stores.loginSessions.rememberClient(sessionId, "operator-rp");
    await stores.loginSessions.rememberClient(sessionId, "vendor-rp");

    await announceBackchannelLogout(productionContext(), [sessionId]);
    expect(received).toEqual(["/operator-rp"]);
  });
});
