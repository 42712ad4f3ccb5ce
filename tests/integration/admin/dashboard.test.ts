/**
 * The dashboards against what happened: sign-ins, failures and lock-outs made through the login form, tokens through
 * the token endpoint and a catalog download through the catalog service, then the operator's figures (the platform)
 * and a company administrator's (their company only); who may see which.
 */
import { describe, expect, it } from "vitest";
import { MAX_FAILURES } from "@/lib/config/policy";
import { issueTicket } from "@/lib/catalog/tickets";
import { actorOfSessionCookie, AccessDenied } from "@/lib/rights/actor";
import { companyDashboard, platformDashboard, type DashboardView } from "@/lib/rights/dashboard";
import { getServiceContext } from "@/lib/service-context";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { flushAllActivity } from "@/lib/store/activity-tally";
import { prismaStores } from "@/lib/store/stores";
import { basic, call, formRequest, ISSUER, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;

const signedIn = async (email: string, password: string) => {
  const agent = new UserAgent("en", `192.0.2.${Math.floor(Math.random() * 250) + 1}`);
  expect((await agent.login("/", email, password)).headers.get("location")).toBe("/");
  return actorOfSessionCookie(getServiceContext(), agent.cookies.get(SESSION_COOKIE));
};
const totals = (view: DashboardView) => ({
  succeeded: view.signIns.reduce((sum, hour) => sum + hour.succeeded, 0),
  failed: view.signIns.reduce((sum, hour) => sum + hour.failed, 0),
  locked: view.signIns.reduce((sum, hour) => sum + hour.locked, 0),
});

describe(`the dashboards on ${testProvider()}`, () => {
  it("count the week's sign-ins, failures, lock-outs, tokens and downloads, the platform's and a company's", async () => {
    // The optician's company: a wrong password, then the administrator signs in. The frames supplier is locked out.
    await new UserAgent("en", "198.51.100.41").login("/", "optician@demo.test", "wrong");
    await signedIn("optician@demo.test", "Optician#2026");
    const guesser = new UserAgent("en", "198.51.100.40");
    for (let attempt = 0; attempt < MAX_FAILURES.account; attempt++)
      await guesser.login("/", "frames@demo.test", `wrong ${attempt}`);
    // Elsewhere: the lens supplier signs in, someone guesses at an address that has no account.
    await signedIn("supplier@demo.test", "Supplier#2026");
    await new UserAgent("en", "203.0.113.9").login("/", "nobody@demo.test", "guess");
    // Two tokens for the backend client, and one download of the lens supplier's catalog.
    for (let index = 0; index < 2; index++) {
      const headers = { Authorization: basic("demo-backend", "demo-backend-secret") };
      const response = await call(
        "token",
        formRequest("/connect/token", { grant_type: "client_credentials" }, headers),
      );
      expect(response.status).toBe(200);
    }
    const optician = await db().user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
    const { ticket } = await issueTicket(prismaStores(db()).tickets, optician.id);
    const { GET } = await import("@/app/getSubCatalog.ashx/route");
    const lens = { companyID: "demo-company-lens", catalogResourceKey: "DLAG-DE", revision: "1" };
    const query = new URLSearchParams({ ...lens, ticket });
    const downloaded = await GET(new Request(`${ISSUER}/getSubCatalog.ashx?${query}`));
    expect(downloaded.status).toBe(200);
    await downloaded.arrayBuffer();
    await flushAllActivity();

    const operator = await signedIn("admin@demo.test", "Admin#2026");
    const platform = await platformDashboard(operator);
    expect(platform.scope).toEqual({ kind: "platform" });
    expect(platform.signIns).toHaveLength(7 * 24);
    // Three sign-ins (the operator's own included), seven failures, one of which locked the frames supplier out.
    expect(totals(platform)).toEqual({ succeeded: 3, failed: MAX_FAILURES.account + 2, locked: 1 });
    expect(platform.tokensByGrant).toEqual([{ grant: "client_credentials", count: 2 }]);
    expect(platform.downloads).toEqual([{ companyId: "demo-company-lens", name: expect.any(String), count: 1 }]);
    expect(platform.activeSessions).toBe(3);
    expect(platform.outbox).toMatchObject({ failed: 0 });
    expect(platform.pending.applications).toBeGreaterThanOrEqual(0);

    const administrator = await signedIn("optician@demo.test", "Optician#2026");
    const company = await companyDashboard(administrator);
    expect(company.scope).toMatchObject({ kind: "company", company: { id: "demo-company-optician" } });
    // Only the optician's company: its two sign-ins and its one failure.
    expect(totals(company)).toEqual({ succeeded: 2, failed: 1, locked: 0 });
    expect(company.downloads).toEqual([]);
    expect(company.outbox).toBeUndefined();
    expect(company.pending).toEqual({ registrationRequests: undefined });
    expect(company.activeSessions).toBe(2);
  });

  it("shows the platform to operators only, and a company's to its administrators only", async () => {
    const denied = (work: Promise<unknown>) => expect(work).rejects.toBeInstanceOf(AccessDenied);
    const administrator = await signedIn("optician@demo.test", "Optician#2026");
    const user = await signedIn("supplier@demo.test", "Supplier#2026");
    const operator = await signedIn("admin@demo.test", "Admin#2026");
    await denied(platformDashboard(administrator));
    await denied(platformDashboard(user));
    await denied(companyDashboard(user));
    await denied(companyDashboard(operator));
    await denied(platformDashboard(await actorOfSessionCookie(getServiceContext(), undefined)));
  });
});
