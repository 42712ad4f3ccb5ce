import { prismaStores } from "@/lib/store/stores";
import { describe, expect, it } from "vitest";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import type { AdminFormOutcome } from "@/lib/forms/admin-form-problem";
import { hashToken } from "@/lib/crypto/tokens";
import { findAuditPage } from "@/lib/admin/audit-page";
import { serviceContextFor } from "@/lib/service-context";
import { loadConfig } from "@/lib/config";
import { decodeJwt } from "jose";
import {
  basic,
  call,
  formRequest,
  SECRET_KEY,
  signedInAgent,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();

/** What a refused form left for the page after it: the sealed one-time cookie (the URL carries none of it). */
function refusal(agent: UserAgent, response: Response) {
  const location = new URL(response.headers.get("location")!, "http://x");
  expect([...location.searchParams.keys()]).toEqual([]);
  const sealed = agent.cookies.get("optigate_admin_form")!;
  expect(response.headers.getSetCookie().find((c) => c.startsWith("optigate_admin_form="))).toMatch(
    /Path=\/admin; SameSite=Lax; HttpOnly; Max-Age=120/,
  );
  return {
    path: location.pathname,
    ...unsealedCookieValue<AdminFormOutcome>("optigate_admin_form", sealed, SECRET_KEY)!,
  };
}
const metadata = JSON.stringify({
  client_id: "admin-made",
  client_name: "Made by admin",
  redirect_uris: ["https://made.example/cb"],
});

describe(`operator form handler on ${testProvider()}`, () => {
  it("refuses everyone but operators with 403 and writes nothing", async () => {
    const optician = await signedInAgent("optician@demo.test", "Optician#2026");
    for (const agent of [optician, new UserAgent()]) {
      const response = await agent.post("admin", "/interaction/admin", { action: "register", metadata });
      expect(response.status).toBe(403);
      // Whatever the form says: one answer, before anything of it is looked at.
      expect((await agent.post("admin", "/interaction/admin", { action: "bogus" })).status).toBe(403);
      expect(
        (
          await agent.post("admin", "/interaction/admin", {
            action: "secret-expiry",
            client_id: "demo-web",
            secret_id: "x",
            expires: "2026-99-99",
          })
        ).status,
      ).toBe(403);
    }
    expect(await service().database.db.client.findUnique({ where: { id: "admin-made" } })).toBeNull();
  });

  it("registers with the CLI's validation, hands the secret over once in a sealed cookie, and manages secrets", async () => {
    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    const bad = await admin.post("admin", "/interaction/admin", {
      action: "register",
      metadata: JSON.stringify({ redirect_uris: ["http://evil.example/cb"] }),
    });
    // The refusal and the draft travel in a sealed cookie, no longer in the URL (issue 24).
    const badOutcome = refusal(admin, bad);
    expect(badOutcome.path).toBe("/admin/clients");
    expect(badOutcome.problem).toEqual({
      key: "metadata",
      field: "metadata",
      reason: expect.stringMatching(/must use https/),
    });
    expect(badOutcome.draft?.metadata).toContain("evil.example");

    const registered = await admin.post("admin", "/interaction/admin", { action: "register", metadata });
    expect(registered.headers.get("location")).toBe("/admin/clients/admin-made?created=1");
    const sealed = admin.cookies.get("optigate_new_secret")!;
    const { secretId, secret } = unsealedCookieValue<{ secretId: string; secret: string }>(
      "optigate_new_secret",
      sealed,
      SECRET_KEY,
    )!;
    const db = service().database.db;
    expect((await db.clientSecret.findUniqueOrThrow({ where: { id: secretId } })).secretHash).toBe(hashToken(secret));
    expect(registered.headers.getSetCookie().find((c) => c.startsWith("optigate_new_secret="))).toMatch(
      /Path=\/admin; SameSite=Lax; HttpOnly; Max-Age=120/,
    );

    await admin.post("admin", "/interaction/admin", {
      action: "secret-expiry",
      client_id: "admin-made",
      secret_id: secretId,
      expires: "2099-12-31",
    });
    expect((await db.clientSecret.findUniqueOrThrow({ where: { id: secretId } })).expiresAt?.toISOString()).toBe(
      "2099-12-31T23:59:59.000Z",
    );
    await admin.post("admin", "/interaction/admin", {
      action: "secret-disable",
      client_id: "admin-made",
      secret_id: secretId,
    });
    expect((await db.clientSecret.findUniqueOrThrow({ where: { id: secretId } })).disabledAt).not.toBeNull();
    await admin.post("admin", "/interaction/admin", {
      action: "secret-add",
      client_id: "admin-made",
      description: "second",
    });
    expect(await db.clientSecret.count({ where: { clientId: "admin-made" } })).toBe(2);

    const updated = await admin.post("admin", "/interaction/admin", {
      action: "update",
      client_id: "admin-made",
      metadata: JSON.stringify({
        client_name: "Renamed",
        redirect_uris: ["https://made.example/cb", "https://made.example/cb2"],
      }),
    });
    expect(updated.headers.get("location")).toBe("/admin/clients/admin-made?saved=1");
    const row = await db.client.findUniqueOrThrow({ where: { id: "admin-made" } });
    expect(JSON.parse(row.redirectUris)).toHaveLength(2);
    expect(JSON.parse(row.names)).toEqual({ default: "Renamed" });

    // The audit trail names the operator who made each change.
    const operator = await db.user.findUniqueOrThrow({ where: { email: "admin@demo.test" } });
    expect(
      new Set((await db.auditEvent.findMany({ where: { clientId: "admin-made" } })).map((event) => event.userId)),
    ).toEqual(new Set([operator.id]));
    const context = serviceContextFor(prismaStores(db), loadConfig());
    const { events } = await findAuditPage(context, { actor: "admin-made" }, {});
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        "client.registered",
        "client.updated",
        "client.secret_disabled",
        "client.secret_expiry_set",
      ]),
    );
    expect((await findAuditPage(context, { actor: "admin-made", kind: "client.updated" }, {})).events).toHaveLength(1);
    expect((await findAuditPage(context, { actor: "nobody@demo.test" }, {})).events).toEqual([]);
    // Impossible dates are named as the filter that cannot be used, and list nothing (they once made the page 500).
    expect(await findAuditPage(context, { actor: "admin-made", from: "2026-99-99", to: "2026-02-30" }, {})).toEqual({
      events: [],
      older: null,
      newer: null,
      retentionDays: 400,
      invalid: "from",
    });

    const removed = await admin.post("admin", "/interaction/admin", { action: "remove", client_id: "admin-made" });
    expect(removed.headers.get("location")).toBe("/admin/clients?removed=admin-made");
    expect(await db.client.findUnique({ where: { id: "admin-made" } })).toBeNull();
  });

  it("gives a backend client a company through its metadata; its tokens then carry company_id", async () => {
    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    const backend = {
      client_name: "Batch",
      grant_types: ["client_credentials"],
      token_endpoint_auth_method: "client_secret_basic",
      scope: "platform.catalogs.read",
    };
    const refused = await admin.post("admin", "/interaction/admin", {
      action: "update",
      client_id: "demo-backend",
      metadata: JSON.stringify({ ...backend, company_id: "no-such-company" }),
    });
    expect(refusal(admin, refused).problem.reason).toBe('company_id "no-such-company" is no company');
    const saved = await admin.post("admin", "/interaction/admin", {
      action: "update",
      client_id: "demo-backend",
      metadata: JSON.stringify({ ...backend, company_id: "demo-company-frames" }),
    });
    expect(saved.headers.get("location")).toBe("/admin/clients/demo-backend?saved=1");
    const { clientDetails } = await import("@/lib/rights/operator-clients");
    const { actorOfSessionCookie } = await import("@/lib/rights/actor");
    const { getServiceContext } = await import("@/lib/service-context");
    const { SESSION_COOKIE } = await import("@/lib/session/session-cookie");
    const details = await clientDetails(
      await actorOfSessionCookie(getServiceContext(), admin.cookies.get(SESSION_COOKIE)),
      "demo-backend",
    );
    expect(details?.company).toEqual({ id: "demo-company-frames", name: "Frame Works GmbH" });
    expect(details?.metadata.company_id).toBe("demo-company-frames");
    const { forgetClient } = await import("@/lib/store/client-store");
    forgetClient("demo-backend");
    const token = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "client_credentials" },
        { authorization: basic("demo-backend", "demo-backend-secret") },
      ),
    );
    expect(decodeJwt((await token.json()).access_token).company_id).toBe("demo-company-frames");
  });

  it("registers a private_key_jwt client with its keys and no secret", async () => {
    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    const jwks = {
      keys: [
        {
          kty: "EC",
          crv: "P-256",
          x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
          y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
          kid: "k1",
        },
      ],
    };
    const keyed = {
      client_id: "admin-keys",
      grant_types: ["client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer"],
      token_endpoint_auth_method: "private_key_jwt",
      scope: "platform.catalogs.read",
    };
    const refused = await admin.post("admin", "/interaction/admin", {
      action: "register",
      metadata: JSON.stringify({ ...keyed, jwks: { keys: [{ ...jwks.keys[0], d: "x" }] } }),
    });
    expect(refusal(admin, refused).problem.reason).toMatch(/private member "d"/);
    const registered = await admin.post("admin", "/interaction/admin", {
      action: "register",
      metadata: JSON.stringify({ ...keyed, jwks }),
    });
    expect(registered.headers.get("location")).toBe("/admin/clients/admin-keys?created=1");
    expect(admin.cookies.get("optigate_new_secret")).toBeUndefined();
    const db = service().database.db;
    expect(await db.clientSecret.count({ where: { clientId: "admin-keys" } })).toBe(0);
    expect(JSON.parse((await db.client.findUniqueOrThrow({ where: { id: "admin-keys" } })).jwks!)).toEqual(jwks);
  });

  it("refuses a forged form", async () => {
    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    const forged = await admin.post("admin", "/interaction/admin", {
      action: "register",
      metadata,
      csrf_token: "forged",
    });
    const left = refusal(admin, forged);
    expect(left.problem).toEqual({ key: "expired" });
    // A form from another page must not prefill the operator's registration form.
    expect(left.draft).toBeUndefined();
  });

  it("refuses ids longer than any client's or secret's before they reach a URL or a cookie", async () => {
    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    for (const fields of [
      { action: "remove", client_id: "c".repeat(65), secret_id: "" },
      { action: "secret-disable", client_id: "demo-web", secret_id: "s".repeat(65) },
    ]) {
      const response = await admin.post("admin", "/interaction/admin", fields);
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
    }
    expect(await service().database.db.client.count({ where: { id: "demo-web" } })).toBe(1);
  });
});
