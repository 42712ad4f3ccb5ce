/**
 * Registering the resource servers a client may reach (RFC 8707, `allowed_resources`): the operator names any in
 * `clients add` and on the operator's form; a software vendor names only its own APIs that the operator allowed it
 * (`partners resources`), by RFC 7591 and on the partner portal's form.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AdminFormOutcome } from "@/lib/forms/admin-form-problem";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { runAdmin } from "../../helpers/admin-cli";
import { call, ISSUER, SECRET_KEY, signedInAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const admin = (...args: string[]) => runAdmin(db(), args);
const VENDOR = "demo-company-vendor";
const VENDOR_API = "https://api.praxissoft.example/appointments";
const directory = mkdtempSync(path.join(tmpdir(), "optigate-resources-"));

function metadataFile(name: string, content: unknown): string {
  const file = path.join(directory, name);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const allowedResources = async (clientId: string) =>
  JSON.parse((await db().client.findUniqueOrThrow({ where: { id: clientId } })).allowedResources) as string[];

describe(`registering resource servers on ${testProvider()}`, () => {
  it("takes allowed_resources in clients add, prints them, and refuses what is no resource server's URI", async () => {
    const backend = { grant_types: ["client_credentials"], scope: "platform.catalogs.read" };
    const added = await admin(
      "clients",
      "add",
      metadataFile("ok.json", { client_id: "res-cli", ...backend, allowed_resources: [VENDOR_API] }),
    );
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout).allowed_resources).toEqual([VENDOR_API]);
    expect(await allowedResources("res-cli")).toEqual([VENDOR_API]);
    for (const [resource, reason] of [
      ["http://api.example.com/orders", /must use https/],
      ["https://api.example.com/orders?tenant=1", /must not contain a query/],
      ["https://api.example.com/orders#x", /fragment/],
      ["/orders", /absolute URI/],
    ]) {
      const file = metadataFile("bad.json", { client_id: "res-bad", ...backend, allowed_resources: [resource] });
      const refused = await admin("clients", "add", file);
      expect(refused.code, String(resource)).toBe(1);
      expect(refused.stderr).toMatch(/allowed_resources\[0\]/);
      expect(refused.stderr).toMatch(reason);
    }
    expect(await db().client.findUnique({ where: { id: "res-bad" } })).toBeNull();
  });

  it("registers allowed_resources from the operator's form, one a line", async () => {
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    const response = await operator.post("admin", "/interaction/admin", {
      action: "register",
      kind: "backend",
      client_id: "res-form",
      client_name: "Order sync",
      allowed_resources: `${VENDOR_API}\r\n  https://stock.partner.example/v1 \r\n`,
      scope: ["platform.catalogs.read"],
    });
    expect(response.headers.get("location")).toBe("/admin/clients/res-form?created=1");
    expect(await allowedResources("res-form")).toEqual([VENDOR_API, "https://stock.partner.example/v1"]);
  });

  it("lets a vendor name only its own APIs that the operator allowed, by RFC 7591 and on the portal", async () => {
    const register = async (token: string, metadata: Record<string, unknown>) =>
      call(
        "register",
        new Request(`${ISSUER}/connect/register`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify(metadata),
        }),
      );
    const token = JSON.parse((await admin("partners", "token", VENDOR)).stdout).initial_access_token;
    const app = (client_id: string) => ({
      client_id,
      redirect_uris: ["https://termine.praxissoft.example/cb"],
      scope: "openid",
      allowed_resources: [VENDOR_API],
    });
    const before = await register(token, app("res-vendor-early"));
    expect(before.status).toBe(400);
    expect(await before.json()).toMatchObject({
      error: "invalid_client_metadata",
      error_description: expect.stringMatching(/allowed_resources "https:\/\/api\.praxissoft\.example\/appointments"/),
    });

    const allowed = await admin("partners", "resources", VENDOR, VENDOR_API);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout)).toEqual({ company: VENDOR, partner_resources: [VENDOR_API] });
    const refusedUri = await admin("partners", "resources", VENDOR, "https://api.praxissoft.example/x?y=1");
    expect([refusedUri.code, refusedUri.stderr]).toEqual([1, expect.stringMatching(/must not contain a query/)]);
    expect((await admin("partners", "resources", "demo-company-optician", VENDOR_API)).code).toBe(1);

    const registered = await register(token, app("res-vendor"));
    expect(registered.status).toBe(201);
    expect(await registered.json()).toMatchObject({ status: "pending", allowed_resources: [VENDOR_API] });
    expect((await admin("clients", "approve", "res-vendor")).code).toBe(0);
    expect(await allowedResources("res-vendor")).toEqual([VENDOR_API]);

    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    await developer.post("developer", "/interaction/developer", {
      action: "register",
      kind: "web",
      client_id: "res-portal",
      client_name: "Termine",
      redirect_uris: "https://termine.praxissoft.example/cb",
      allowed_resources: "https://api.someone-else.example/orders",
      scope: ["openid"],
    });
    const refusal = unsealedCookieValue<AdminFormOutcome>(
      "optigate_developer_form",
      developer.cookies.get("optigate_developer_form"),
      SECRET_KEY,
    );
    expect(refusal?.problem).toEqual({
      key: "resourceNotAllowed",
      field: "allowed_resources",
      value: "https://api.someone-else.example/orders",
    });
    expect(await db().client.findUnique({ where: { id: "res-portal" } })).toBeNull();
  });
});
