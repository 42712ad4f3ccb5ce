/**
 * The audit page's data (lib/rights/operator-audit.ts) for each kind of visitor, on a real database: the operator
 * gets the trail with its filters and pages older and newer; a company's administrator, a user who is none, a visitor
 * and a management client without manage.audit.read get nothing; a filter the page cannot use is named, with nothing
 * listed. (tests/e2e/audit-page.spec.ts reads the rendered page's raw HTML per role.)
 */
import { describe, expect, it } from "vitest";
import { AUDIT_PAGE_SIZE } from "@/lib/admin/audit-page";
import { actorOfSessionCookie, AccessDenied, type Actor } from "@/lib/rights/actor";
import { auditPageFor } from "@/lib/rights/operator-audit";
import { getServiceContext } from "@/lib/service-context";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { actingAsClient } from "@/lib/store/audit-attribution";
import { signedInAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

useOAuthService();

async function actorOf(email?: string, password?: string): Promise<Actor> {
  const agent = email ? await signedInAgent(email, password!) : undefined;
  return actorOfSessionCookie(getServiceContext(), agent?.cookies.get(SESSION_COOKIE));
}

const refusal = (read: Promise<unknown>) =>
  read.then(
    () => "allowed",
    (error: unknown) => (error instanceof AccessDenied ? error.code : `failed: ${String(error)}`),
  );

describe(`the audit page's data on ${testProvider()}`, () => {
  it("reaches operators and operators' clients with manage.audit.read only", async () => {
    const operator = await actorOf("admin@demo.test", "Admin#2026");
    expect((await auditPageFor(operator, {}, {})).events.length).toBeGreaterThan(0);
    const context = getServiceContext();
    const client = (scopes: string[], company?: string) =>
      ({
        kind: "manager",
        context,
        clientId: "audit-page-client",
        scopes: new Set(scopes),
        ...(company
          ? {
              company: {
                id: company,
                name: "x",
                kind: "eye_care_professional",
                supplierId: null,
                requireSecondFactor: false,
              },
            }
          : {}),
      }) as const;
    expect(await refusal(auditPageFor(client(["manage.audit.read"]), {}, {}))).toBe("allowed");
    expect(await refusal(auditPageFor(client(["manage.companies.read"]), {}, {}))).toBe("forbidden");
    expect(await refusal(auditPageFor(client(["manage.audit.read"], "demo-company-optician"), {}, {}))).toBe(
      "forbidden",
    );

    expect(await refusal(auditPageFor(await actorOf("optician@demo.test", "Optician#2026"), {}, {}))).toBe("forbidden");
    expect(await refusal(auditPageFor(await actorOf("developer@demo.test", "Developer#2026"), {}, {}))).toBe(
      "forbidden",
    );
    expect(await refusal(auditPageFor(await actorOf(), {}, {}))).toBe("sign_in_required");
  });

  it("filters, and pages back to older events and forth to newer ones with the filters kept", async () => {
    const operator = await actorOf("admin@demo.test", "Admin#2026");
    const { audit } = getServiceContext().stores;
    const count = AUDIT_PAGE_SIZE * 2 + 7;
    for (let index = 0; index < count; index++)
      await actingAsClient("audit-page-erp", () =>
        audit.record({
          type: index % 2 ? "user.invited" : "company.updated",
          companyId: "audit-page-co",
          details: { revision: index },
        }),
      );
    const filter = { company: "audit-page-co" };
    const first = await auditPageFor(operator, filter, {});
    expect([first.events.length, first.newer, first.older !== null]).toEqual([AUDIT_PAGE_SIZE, null, true]);
    expect(first.events[0]).toMatchObject({ companyId: "audit-page-co", byClientId: "audit-page-erp" });
    const second = await auditPageFor(operator, filter, { older: first.older! });
    const third = await auditPageFor(operator, filter, { older: second.older! });
    expect([second.events.length, third.events.length, third.older]).toEqual([AUDIT_PAGE_SIZE, 7, null]);
    const ids = [...first.events, ...second.events, ...third.events].map((event) => event.id);
    expect(new Set(ids).size).toBe(count);
    const times = [...first.events, ...second.events, ...third.events].map((event) => event.occurredAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const back = await auditPageFor(operator, filter, { newer: third.newer! });
    expect(back.events.map((event) => event.id)).toEqual(second.events.map((event) => event.id));
    const top = await auditPageFor(operator, filter, { newer: second.newer! });
    expect([top.events.map((event) => event.id), top.newer]).toEqual([first.events.map((event) => event.id), null]);

    const invited = await auditPageFor(operator, { ...filter, kind: "user.", actor: "audit-page-erp" }, {});
    expect(invited.events.every((event) => event.type === "user.invited")).toBe(true);
    expect(invited.events).toHaveLength(AUDIT_PAGE_SIZE);
    // A link that names no place in the trail shows the newest events.
    expect((await auditPageFor(operator, filter, { older: "nonsense" })).events[0].id).toBe(first.events[0].id);
  });

  it("names a filter it cannot use and lists nothing, and finds nobody for an unknown address", async () => {
    const operator = await actorOf("admin@demo.test", "Admin#2026");
    for (const [input, field] of [
      [{ kind: "nothing.like.this" }, "kind"],
      [{ company: "no such id!" }, "company"],
      [{ from: "2026-02-30" }, "from"],
      [{ from: "2026-05-02", to: "2026-05-01" }, "to"],
      [{ actor: "x".repeat(201) }, "actor"],
    ] as const) {
      const view = await auditPageFor(operator, input, {});
      expect([view.invalid, view.events], field).toEqual([field, []]);
    }
    const nobody = await auditPageFor(operator, { actor: "nobody@demo.test" }, {});
    expect([nobody.invalid, nobody.events]).toEqual([undefined, []]);
    const optician = await auditPageFor(operator, { actor: "OPTICIAN@demo.test", kind: "sign_in." }, {});
    expect(optician.events.map((event) => event.email)).toContain("optician@demo.test");
  });
});
