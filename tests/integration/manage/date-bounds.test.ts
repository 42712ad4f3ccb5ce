/**
 * Dates outside the years 1…9999, or that do not exist, refused wherever a date is typed (lib/http/calendar-instant.ts):
 * the management API's audit filters (list and export) and a secret's expiry (400), the operator's audit page (the
 * filter named) and client form (the form's refusal), and the CLI; never a 500 from a database that cannot store them
 * (PostgreSQL refuses year 0 and five-digit years). The bounds themselves are accepted and stored.
 */
import { describe, expect, it } from "vitest";
import { findAuditPage } from "@/lib/admin/audit-page";
import { loadConfig } from "@/lib/config";
import type { AdminFormOutcome } from "@/lib/forms/admin-form-problem";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { serviceContextFor } from "@/lib/service-context";
import { prismaStores } from "@/lib/store/stores";
import { runAdmin } from "../../helpers/admin-cli";
import { manage, managementToken } from "../../helpers/manage-api";
import { SECRET_KEY, signedInAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const OUT_OF_RANGE = [
  "0000-01-01",
  "0001-01-01T00:00:00+01:00",
  "9999-12-31T23:59:59-01:00",
  "10000-01-01",
  "275760-09-13",
  "2026-02-30",
  "2026-01-01T24:00:00Z",
  "1969-12-31T23:59:59.9999999999Z",
];

describe(`date bounds on ${testProvider()}`, () => {
  it("the management API answers 400 for such dates in audit filters and expiries, and takes the bounds", async () => {
    const { token, clientId } = await managementToken(prismaStores(db()), [
      "manage.clients.write",
      "manage.audit.read",
    ]);
    const secret = (await manage("POST", `/clients/${clientId}/secrets`, { token, body: {} })).body;
    const expiry = `/clients/${clientId}/secrets/${secret.secret_id}/expiry`;
    for (const date of OUT_OF_RANGE) {
      for (const path of ["/audit-events", "/audit-events/export"])
        for (const field of ["from", "to"]) {
          const answer = await manage("GET", `${path}?${field}=${encodeURIComponent(date)}`, { token });
          expect([date, path, field, answer.response.status]).toEqual([date, path, field, 400]);
          expect(answer.body.detail).toMatch(/within the years 1 to 9999/);
        }
      const set = await manage("POST", expiry, { token, body: { expires_at: date } });
      expect([date, set.response.status]).toEqual([date, 400]);
      const added = await manage("POST", `/clients/${clientId}/secrets`, { token, body: { expires_at: date } });
      expect([date, added.response.status]).toEqual([date, 400]);
    }
    const stored = async () =>
      (await db().clientSecret.findUniqueOrThrow({ where: { id: secret.secret_id } })).expiresAt?.toISOString();
    expect(await stored()).toBeUndefined();

    for (const [from, to] of [
      ["0001-01-01", "9999-12-31"],
      ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z"],
      ["0001-01-01T01:00:00+01:00", "9999-12-31T23:59:59+00:00"],
    ]) {
      const query = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
      const listed = await manage("GET", `/audit-events?${query}&limit=1`, { token });
      expect([from, listed.response.status, listed.body.items.length]).toEqual([from, 200, 1]);
      expect((await manage("GET", `/audit-events/export?${query}`, { token })).response.status).toBe(200);
    }
    const last = await manage("POST", expiry, { token, body: { expires_at: "9999-12-31" } });
    expect(last.response.status).toBe(200);
    expect(await stored()).toBe("9999-12-31T23:59:59.000Z");
    await manage("POST", expiry, { token, body: { expires_at: "9999-12-31T23:59:59.999+00:00" } });
    expect(await stored()).toBe("9999-12-31T23:59:59.999Z");
  });

  it("the operator's audit page names the filter, and the client form refuses the expiry", async () => {
    const context = serviceContextFor(prismaStores(db()), loadConfig());
    for (const date of OUT_OF_RANGE)
      for (const field of ["from", "to"] as const)
        expect((await findAuditPage(context, { [field]: date }, {})).invalid).toBe(field);
    const bounds = await findAuditPage(context, { from: "0001-01-01", to: "9999-12-31" }, {});
    expect([bounds.invalid, bounds.events.length > 0]).toEqual([undefined, true]);

    const admin = await signedInAgent("admin@demo.test", "Admin#2026");
    const secretId = (await db().clientSecret.findFirstOrThrow({ where: { clientId: "demo-web" } })).id;
    const before = (await db().clientSecret.findUniqueOrThrow({ where: { id: secretId } })).expiresAt;
    for (const expires of ["0000-01-01", "10000-01-01", "2026-02-30"]) {
      const form = { action: "secret-expiry", client_id: "demo-web", secret_id: secretId, expires };
      const refused = await admin.post("admin", "/interaction/admin", form);
      expect(refused.status).toBe(303);
      const sealed = admin.cookies.get("optigate_admin_form")!;
      const outcome = unsealedCookieValue<AdminFormOutcome>("optigate_admin_form", sealed, SECRET_KEY)!;
      // The form's own field error, as for any date that is none.
      expect([expires, outcome.action, outcome.problem]).toEqual([
        expires,
        "secret-expiry",
        { key: "date", field: `expires-${secretId}` },
      ]);
    }
    expect((await db().clientSecret.findUniqueOrThrow({ where: { id: secretId } })).expiresAt).toEqual(before);
  });

  it("the CLI refuses such an expiry for a client secret and an initial access token", async () => {
    for (const date of OUT_OF_RANGE) {
      const secret = await runAdmin(db(), ["clients", "secret", "add", "demo-web", "--expires", date]);
      expect([date, secret.code, secret.stderr]).toEqual([date, 2, expect.stringContaining("years 1…9999")]);
      const token = await runAdmin(db(), ["partners", "token", "demo-company-vendor", "--expires", date]);
      expect([date, token.code, token.stderr]).toEqual([date, 2, expect.stringContaining("years 1…9999")]);
    }
    const far = await runAdmin(db(), ["clients", "secret", "add", "demo-web", "--expires", "9999-12-31"]);
    expect(far.code).toBe(0);
    const { secret_id } = JSON.parse(far.stdout);
    expect((await db().clientSecret.findUniqueOrThrow({ where: { id: secret_id } })).expiresAt?.toISOString()).toBe(
      "9999-12-31T23:59:59.000Z",
    );
  });
});
