/**
 * Device clients as they are registered (RFC 8628 in client metadata): `clients add`, the operator's and the partner
 * portal's forms and RFC 7591 take the device grant, a public device client needs no redirect URI, and a confidential
 * one authenticates at the device authorization endpoint as at the token endpoint. The endpoint's limits: requests
 * per network and the requests a client may have waiting.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as oidc from "openid-client";
import { describe, expect, it } from "vitest";
import { DEVICE_AUTHORIZATION_LIMITS, MAX_PENDING_DEVICE_AUTHORIZATIONS } from "@/lib/config/policy";
import { DEVICE_CODE_GRANT } from "@/lib/oauth/grant-types";
import { runAdmin } from "../../helpers/admin-cli";
import { basic, call, ISSUER, signedInAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";
import { decide, deviceClient, deviceCodes, poll, requestDeviceCodes } from "./device-steps";

const service = useOAuthService();
const db = () => service().database.db;
const admin = (...args: string[]) => runAdmin(db(), args);
const directory = mkdtempSync(path.join(tmpdir(), "optigate-device-clients-"));

function metadataFile(name: string, metadata: unknown): string {
  const file = path.join(directory, name);
  writeFileSync(file, JSON.stringify(metadata));
  return file;
}

const grantsOf = async (clientId: string) =>
  JSON.parse((await db().client.findUniqueOrThrow({ where: { id: clientId } })).grantTypes) as string[];

describe(`registering device clients on ${testProvider()}`, () => {
  it("adds a public device client from the CLI with no redirect URI, rotating its refresh tokens", async () => {
    const metadata = {
      client_id: "cli-edger",
      client_name: "Edger",
      grant_types: [DEVICE_CODE_GRANT],
      token_endpoint_auth_method: "none",
      offline_access: true,
      scope: "openid profile offline_access",
    };
    const added = await admin("clients", "add", metadataFile("cli-edger.json", metadata));
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      client_id: "cli-edger",
      application_type: "native",
      redirect_uris: [],
      grant_types: [DEVICE_CODE_GRANT, "refresh_token"],
      refresh_token_policy: "rotate",
    });
    expect(JSON.parse(added.stdout).client_secret).toBeUndefined();
    const refused = await admin(
      "clients",
      "add",
      metadataFile("cli-reuse.json", { ...metadata, client_id: "cli-reuse", refresh_token_policy: "reuse" }),
    );
    expect(refused.stderr).toMatch(/not allowed for public clients/);
    // The device grant does not make a browser app: it has no place among a browser app's grants.
    const browser = await admin(
      "clients",
      "add",
      metadataFile("cli-spa.json", {
        client_id: "cli-spa",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", DEVICE_CODE_GRANT],
        redirect_uris: ["https://spa.example/cb"],
        allowed_cors_origins: ["https://spa.example"],
      }),
    );
    expect(browser.stderr).toMatch(/does not fit a browser client/);
  });

  it("signs in a confidential device client with its secret, and refuses it without one", async () => {
    const added = await admin(
      "clients",
      "add",
      metadataFile("kiosk.json", { client_id: "cli-kiosk", grant_types: [DEVICE_CODE_GRANT], scope: "openid" }),
    );
    expect(added.code, added.stderr).toBe(0);
    const { client_secret: secret } = JSON.parse(added.stdout);
    expect(secret).toEqual(expect.any(String));
    const withoutSecret = await requestDeviceCodes({ client_id: "cli-kiosk", scope: "openid" });
    expect([withoutSecret.status, (await withoutSecret.json()).error]).toEqual([401, "invalid_client"]);

    const config = await deviceClient("cli-kiosk", oidc.ClientSecretBasic(secret));
    const device = await oidc.initiateDeviceAuthorization(config, { scope: "openid" });
    await decide(await signedInAgent("optician@demo.test", "Optician#2026"), device.user_code, "allow", ["openid"]);
    const tokens = await poll(
      device.device_code,
      { client_id: "cli-kiosk" },
      { Authorization: basic("cli-kiosk", secret) },
    );
    expect(tokens.status).toBe(200);
    expect(await tokens.json()).toMatchObject({ id_token: expect.any(String), token_type: "Bearer" });
  });

  it("registers a device client through the operator's form and the partner portal's", async () => {
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    const byOperator = await operator.post("admin", "/interaction/admin", {
      action: "register",
      kind: "device",
      client_id: "form-edger",
      client_name: "Form edger",
      offline_access: "on",
      scope: ["openid", "profile"],
    });
    expect(byOperator.status).toBe(303);
    expect(await grantsOf("form-edger")).toEqual([DEVICE_CODE_GRANT, "refresh_token"]);
    expect((await deviceCodes({ client_id: "form-edger", scope: "openid offline_access" })).user_code).toBeTruthy();

    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const byPartner = await developer.post("developer", "/interaction/developer", {
      action: "register",
      kind: "device",
      client_name: "Partner edger",
      scope: ["openid"],
    });
    expect(byPartner.status).toBe(303);
    const partnerClient = await db().client.findFirstOrThrow({
      where: { ownerCompanyId: "demo-company-vendor", names: { contains: "Partner edger" } },
    });
    expect([JSON.parse(partnerClient.grantTypes), partnerClient.status]).toEqual([[DEVICE_CODE_GRANT], "pending"]);
  });

  it("takes the device grant in an RFC 7591 registration", async () => {
    const issued = await admin("partners", "token", "demo-company-vendor");
    const token = JSON.parse(issued.stdout).initial_access_token;
    const response = await call(
      "register",
      new Request(`${ISSUER}/connect/register`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({
          client_id: "rfc7591-edger",
          client_name: "Registered edger",
          grant_types: [DEVICE_CODE_GRANT],
          token_endpoint_auth_method: "none",
          scope: "openid",
        }),
      }),
    );
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      client_id: "rfc7591-edger",
      grant_types: [DEVICE_CODE_GRANT],
      token_endpoint_auth_method: "none",
      redirect_uris: [],
      status: "pending",
    });
    // Pending, it is not a client yet; approved, it asks for codes.
    expect((await requestDeviceCodes({ client_id: "rfc7591-edger", scope: "openid" })).status).toBe(401);
    expect((await admin("clients", "approve", "rfc7591-edger")).code).toBe(0);
    expect((await deviceCodes({ client_id: "rfc7591-edger", scope: "openid" })).device_code).toBeTruthy();
  });
});

describe(`the device authorization endpoint's limits on ${testProvider()}`, () => {
  it("answers 429 to a network past its requests a minute", async () => {
    const from = { "x-forwarded-for": "192.0.2.77" };
    const statuses = [];
    for (let request = 0; request < DEVICE_AUTHORIZATION_LIMITS.address.max; request++)
      statuses.push((await requestDeviceCodes({}, from)).status);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const refused = await requestDeviceCodes({}, from);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error_description).toMatch(/too many device sign-in requests from this network/);
  });

  it("stores no more requests while a client has the most that may wait for a decision", async () => {
    const now = Date.now();
    await db().deviceAuthorization.createMany({
      data: Array.from({ length: MAX_PENDING_DEVICE_AUTHORIZATIONS }, (_, index) => ({
        deviceCodeHash: `waiting-device-${index}`,
        userCodeHash: `waiting-user-${index}`,
        clientId: "cli-edger",
        scopes: "[]",
        pollInterval: 5,
        nextPollAt: new Date(now),
        expiresAt: new Date(now + 600_000),
      })),
    });
    const refused = await requestDeviceCodes({ client_id: "cli-edger", scope: "openid" });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error_description).toMatch(/wait for a decision/);
    await db().deviceAuthorization.updateMany({
      where: { clientId: "cli-edger", deviceCodeHash: { startsWith: "waiting-device-" } },
      data: { expiresAt: new Date(now - 1000) },
    });
    expect((await requestDeviceCodes({ client_id: "cli-edger", scope: "openid" })).status).toBe(200);
  });
});
