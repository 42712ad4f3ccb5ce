/**
 * The partner portal's form (/interaction/developer): a software vendor's administrators and
 * developers register applications, by kind or as JSON, with the checks of `clients add` and the vendor's rules;
 * the application is pending and belongs to the vendor; nobody else may register through it.
 */
import { prismaStores } from "@/lib/store/stores";
import { describe, expect, it } from "vitest";
import type { AdminFormOutcome } from "@/lib/forms/admin-form-problem";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { getServiceContext } from "@/lib/service-context";
import { actorOfSessionCookie } from "@/lib/rights/actor";
import { partnerPortalView } from "@/lib/rights/partner-portal";
import { developerNotice } from "@/lib/pages/developer-notice";
import { hashToken } from "@/lib/crypto/tokens";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { hashPassword } from "@/lib/crypto/password";
import { openMailBody } from "@/lib/mail/outbox";
import {
  basic,
  call,
  formRequest,
  ISSUER,
  SECRET_KEY,
  signedInAgent,
  UserAgent,
  useOAuthService,
} from "../../helpers/oauth-service";
import { runAdmin } from "../../helpers/admin-cli";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const register = (agent: UserAgent, form: Record<string, string | string[]>) =>
  agent.post("developer", "/interaction/developer", { action: "register", ...form });
const refusal = (agent: UserAgent) =>
  unsealedCookieValue<AdminFormOutcome>(
    "optigate_developer_form",
    agent.cookies.get("optigate_developer_form"),
    SECRET_KEY,
  );

describe(`the partner portal's registration on ${testProvider()}`, () => {
  it("registers a server web app by kind as pending, owned by the developer's company", async () => {
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const response = await register(developer, {
      kind: "web",
      client_id: "praxissoft-portal-web",
      client_name: "Praxissoft Web",
      redirect_uris: "https://web.praxissoft.example/callback",
      scope: ["openid", "profile", "platform.catalogs.read"],
    });
    expect(response.headers.get("location")).toBe("/portal/developer?registered=praxissoft-portal-web");
    expect(await db().client.findUniqueOrThrow({ where: { id: "praxissoft-portal-web" } })).toMatchObject({
      status: "pending",
      ownerCompanyId: "demo-company-vendor",
      kind: "web",
    });
    const actor = await actorOfSessionCookie(getServiceContext(), developer.cookies.get(SESSION_COOKIE));
    const view = await partnerPortalView(actor);
    expect(view.applications.map((application) => [application.client.id, application.status])).toContainEqual([
      "praxissoft-portal-web",
      "pending",
    ]);
    // Only the company's own applications, never the operator's demo clients.
    expect(view.applications.every((application) => !application.client.id.startsWith("demo-"))).toBe(true);
    expect(view.scopes.map((scope) => scope.name)).not.toContain("platform.supplierreg.readwrite");
  });

  it("stores the DPoP and pushed-request switches ticked in the form, and refuses DPoP with the implicit grant", async () => {
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const response = await register(developer, {
      kind: "browser",
      client_id: "praxissoft-bound-spa",
      client_name: "Praxissoft Bound",
      redirect_uris: "https://spa.praxissoft.example/callback",
      allowed_cors_origins: "https://spa.praxissoft.example",
      dpop_bound_access_tokens: "on",
      require_pushed_authorization_requests: "on",
      scope: ["openid", "profile"],
    });
    expect(response.headers.get("location")).toBe("/portal/developer?registered=praxissoft-bound-spa");
    expect(await db().client.findUniqueOrThrow({ where: { id: "praxissoft-bound-spa" } })).toMatchObject({
      status: "pending",
      kind: "browser",
      dpopBoundAccessTokens: true,
      requirePushedAuthorizationRequests: true,
    });
    // The application's metadata on the portal says so too.
    const actor = await actorOfSessionCookie(getServiceContext(), developer.cookies.get(SESSION_COOKIE));
    const application = (await partnerPortalView(actor)).applications.find(
      ({ client }) => client.id === "praxissoft-bound-spa",
    );
    expect(application?.metadata).toMatchObject({
      dpop_bound_access_tokens: true,
      require_pushed_authorization_requests: true,
    });

    await register(developer, {
      kind: "web",
      client_name: "Bound, no callback",
      dpop_bound_access_tokens: "on",
      require_pushed_authorization_requests: "on",
    });
    expect(refusal(developer)).toMatchObject({
      problem: { key: "redirect_uris", field: "redirect_uris" },
      draft: { dpop_bound_access_tokens: "on", require_pushed_authorization_requests: "on" },
    });
    // The form registers no implicit clients; the JSON view can, and is refused the switch with it.
    await register(developer, {
      metadata: JSON.stringify({
        client_name: "Implicit",
        token_endpoint_auth_method: "none",
        grant_types: ["implicit"],
        redirect_uris: ["https://spa.praxissoft.example/callback"],
        allowed_cors_origins: ["https://spa.praxissoft.example"],
        dpop_bound_access_tokens: true,
      }),
    });
    expect(refusal(developer)?.problem).toEqual({
      key: "metadata",
      field: "metadata",
      reason: expect.stringMatching(/^dpop_bound_access_tokens cannot be true with the implicit grant/),
    });
    expect(await db().client.count({ where: { names: { contains: "Implicit" } } })).toBe(0);
  });

  it("refuses what clients add refuses and what the vendor may not ask for, keeping what was typed", async () => {
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const before = await db().client.count();
    await register(developer, {
      kind: "web",
      client_name: "Too much",
      redirect_uris: "https://web.praxissoft.example/callback",
      scope: ["openid", "platform.supplierreg.readwrite"],
    });
    expect(refusal(developer)).toMatchObject({ action: "register", draft: { client_name: "Too much" } });
    expect(refusal(developer)?.problem).toMatchObject({ key: "scopeNotAllowed", field: "scope" });
    await register(developer, { kind: "web", client_name: "Plain", redirect_uris: "http://web.praxissoft.example/cb" });
    expect(refusal(developer)?.problem).toMatchObject({ key: "redirect_uris", field: "redirect_uris" });
    await register(developer, {
      metadata:
        '{"client_name": "x", "grant_types": ["client_credentials"], "scope": "platform.catalogs.read", "company_id": "demo-company-lens"}',
    });
    expect(refusal(developer)?.problem.reason).toMatch(/company_id/);
    await register(developer, {
      kind: "web",
      client_id: "praxissoft-termine",
      client_name: "Taken",
      redirect_uris: "https://web.praxissoft.example/callback",
    });
    expect(refusal(developer)?.problem).toEqual({
      key: "clientIdTaken",
      field: "client_id",
      value: "praxissoft-termine",
    });
    await register(developer, {
      kind: "web",
      client_name: "Plain logout",
      redirect_uris: "https://web.praxissoft.example/callback",
      post_logout_redirect_uris: "http://web.praxissoft.example/",
    });
    expect(refusal(developer)?.problem).toMatchObject({ field: "post_logout_redirect_uris" });
    await register(developer, { kind: "web", csrf_token: "forged", client_name: "x" });
    expect(refusal(developer)?.problem).toEqual({ key: "expired" });
    expect(await db().client.count()).toBe(before);
  });

  it("is for software vendors' administrators and developers only", async () => {
    const anonymous = await register(new UserAgent(), { kind: "web", client_name: "x" });
    expect(anonymous.headers.get("location")).toBe("/login?returnUrl=%2Fportal%2Fdeveloper");
    const optician = await signedInAgent("optician@demo.test", "Optician#2026");
    const operator = await signedInAgent("admin@demo.test", "Admin#2026");
    await db().user.create({
      data: {
        email: "plain-user@praxissoft.example",
        givenName: "P",
        familyName: "U",
        companyId: "demo-company-vendor",
        role: "user",
        passwordHash: await hashPassword("vendor plain user 1"),
      },
    });
    const plainUser = await signedInAgent("plain-user@praxissoft.example", "vendor plain user 1");
    for (const agent of [optician, operator, plainUser]) {
      const response = await register(agent, { kind: "web", client_name: "x", redirect_uris: "https://x.example/cb" });
      expect(response.status).toBe(403);
    }
    expect(await db().client.count({ where: { names: { contains: '"x"' } } })).toBe(0);
  });
});

describe(`changing and removing an application on the partner portal on ${testProvider()}`, () => {
  const act = (agent: UserAgent, form: Record<string, string>) =>
    agent.post("developer", "/interaction/developer", form);
  const row = (id: string) => db().client.findUniqueOrThrow({ where: { id } });

  it("changes a pending one at once, an approved one after approval, a rejected one back to pending", async () => {
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const clientId = "praxissoft-changes";
    await register(developer, {
      kind: "web",
      client_id: clientId,
      client_name: "Changes",
      redirect_uris: "https://changes.praxissoft.example/callback",
    });
    const actor = await actorOfSessionCookie(getServiceContext(), developer.cookies.get(SESSION_COOKIE));
    const metadataOf = async () =>
      (await partnerPortalView(actor)).applications.find((application) => application.client.id === clientId)!.metadata;
    const withRedirect = async (uri: string) => JSON.stringify({ ...(await metadataOf()), redirect_uris: [uri] });

    const first = await act(developer, {
      action: "update",
      client_id: clientId,
      metadata: await withRedirect("https://changes.praxissoft.example/one"),
    });
    expect(first.headers.get("location")).toBe(`/portal/developer?changed=${clientId}`);
    expect(await row(clientId)).toMatchObject({ status: "pending", redirectUris: expect.stringContaining("/one") });

    expect((await runAdmin(db(), ["clients", "approve", clientId])).code).toBe(0);
    await act(developer, {
      action: "update",
      client_id: clientId,
      metadata: await withRedirect("https://changes.praxissoft.example/two"),
    });
    expect(await row(clientId)).toMatchObject({
      status: "approved",
      redirectUris: expect.stringContaining("/one"),
      pendingMetadata: expect.stringContaining("/two"),
    });
    // The page offers the change waiting, to be changed again.
    expect(await metadataOf()).toMatchObject({ redirect_uris: ["https://changes.praxissoft.example/two"] });

    await runAdmin(db(), ["clients", "reject", clientId, "--reason", "Keep one"]);
    expect(await row(clientId)).toMatchObject({ status: "approved", pendingMetadata: null, reviewNote: "Keep one" });

    const refused = await act(developer, { action: "update", client_id: clientId, metadata: "{not json" });
    expect(refused.headers.get("location")).toBe(`/portal/developer?edit=${clientId}#change`);
    expect(refusal(developer)).toMatchObject({
      action: "update",
      problem: { key: "json", field: "metadata" },
      draft: { metadata: "{not json" },
    });
  });

  it("removes the company's own application only, once", async () => {
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const clientId = "praxissoft-removal";
    await register(developer, {
      kind: "web",
      client_id: clientId,
      client_name: "Removal",
      redirect_uris: "https://removal.praxissoft.example/callback",
    });
    for (const foreign of ["demo-web", "demo-backend"]) {
      const response = await act(developer, { action: "remove", client_id: foreign });
      expect(response.headers.get("location")).toBe(`/portal/developer?edit=${foreign}#change`);
      expect(refusal(developer)?.problem).toEqual({ key: "notFound" });
      const changed = await act(developer, { action: "update", client_id: foreign, metadata: '{"client_id":"x"}' });
      expect(changed.headers.get("location")).toBe(`/portal/developer?edit=${foreign}#change`);
      expect(await db().client.count({ where: { id: foreign } })).toBe(1);
    }
    const removed = await act(developer, { action: "remove", client_id: clientId });
    expect(removed.headers.get("location")).toBe(`/portal/developer?removed=${clientId}`);
    expect(await db().client.count({ where: { id: clientId } })).toBe(0);
    expect((await act(developer, { action: "remove", client_id: clientId })).headers.get("location")).toBe(
      `/portal/developer?edit=${clientId}#change`,
    );
    expect(await db().auditEvent.count({ where: { clientId, type: "client.removed" } })).toBe(1);
  });
});

describe(`a partner's secrets on ${testProvider()}`, () => {
  const secretOf = (agent: UserAgent) =>
    unsealedCookieValue<{ clientId: string; secretId: string; secret: string }>(
      "optigate_developer_secret",
      agent.cookies.get("optigate_developer_secret"),
      SECRET_KEY,
    );
  const tokenWith = (clientId: string, secret: string) =>
    call(
      "token",
      formRequest("/connect/token", { grant_type: "client_credentials" }, { authorization: basic(clientId, secret) }),
    );

  it("are created for pending and approved server applications, shown once, rotated with two, and record their last use", async () => {
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const clientId = "praxissoft-rotation";
    await register(developer, {
      kind: "web",
      client_id: clientId,
      client_name: "Rotation",
      redirect_uris: "https://rotation.praxissoft.example/callback",
    });
    const registered = secretOf(developer)!;
    const pending = await developer.post("developer", "/interaction/developer", {
      action: "secret-add",
      client_id: clientId,
    });
    expect(pending.headers.get("location")).toBe("/portal/developer?saved=1");
    const prepared = secretOf(developer)!;
    expect((await runAdmin(db(), ["clients", "approve", clientId])).code).toBe(0);
    // Those made before the approval are disabled here, to rotate the two below alone.
    for (const { secretId } of [registered, prepared])
      await developer.post("developer", "/interaction/developer", {
        action: "secret-disable",
        client_id: clientId,
        secret_id: secretId,
      });

    const add = (form: Record<string, string> = {}) =>
      developer.post("developer", "/interaction/developer", { action: "secret-add", client_id: clientId, ...form });
    expect((await add({ description: "first" })).headers.get("location")).toBe("/portal/developer?saved=1");
    const first = secretOf(developer)!;
    expect(first).toMatchObject({ clientId, secret: expect.stringMatching(/^[\w-]{43}$/) });
    await add({ expires: "2099-01-01" });
    expect(refusal(developer)?.problem).toMatchObject({ key: "expiryTooFar" });
    await add({ description: "second", expires: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) });
    const second = secretOf(developer)!;
    expect(second.secret).not.toBe(first.secret);

    // Both work at once; the first is then disabled and stops working.
    for (const secret of [first.secret, second.secret]) expect((await tokenWith(clientId, secret)).status).toBe(400); // unauthorized_client: a web app has no client_credentials
    await new Promise((resolve) => setTimeout(resolve, 50));
    const used = await db().clientSecret.findMany({ where: { clientId, disabledAt: null } });
    expect(used.every((secret) => secret.lastUsedAt !== null)).toBe(true);
    expect(
      (
        await developer.post("developer", "/interaction/developer", {
          action: "secret-disable",
          client_id: clientId,
          secret_id: first.secretId,
        })
      ).headers.get("location"),
    ).toBe("/portal/developer?saved=1");
    expect(await (await tokenWith(clientId, first.secret)).json()).toMatchObject({ error: "invalid_client" });
    expect(await (await tokenWith(clientId, second.secret)).json()).toMatchObject({ error: "unauthorized_client" });
  });

  it("come with a server application's registration, shown once, and the notice follows the application", async () => {
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const actor = await actorOfSessionCookie(getServiceContext(), developer.cookies.get(SESSION_COOKIE));
    const applications = async () => (await partnerPortalView(actor)).applications;
    const noticeOf = async (query: { registered?: string; changed?: string }) =>
      developerNotice(query, await applications());
    const clientId = "praxissoft-first-secret";
    const registered = await register(developer, {
      kind: "web",
      client_id: clientId,
      client_name: "First Secret",
      redirect_uris: "https://first.praxissoft.example/callback",
    });
    expect(registered.headers.get("location")).toBe(`/portal/developer?registered=${clientId}`);
    const shown = secretOf(developer)!;
    expect(shown).toMatchObject({ clientId, secret: expect.stringMatching(/^[\w-]{43}$/) });
    const stored = await db().clientSecret.findMany({ where: { clientId } });
    expect(stored.map((secret) => [secret.id, secret.secretHash])).toEqual([[shown.secretId, hashToken(shown.secret)]]);
    expect(stored[0].expiresAt!.getTime()).toBeGreaterThan(Date.now() + 731 * 86_400_000);
    // The pending application's secrets section lists it (never its value), ready for rotation before approval.
    const pending = (await applications()).find(({ client }) => client.id === clientId)!;
    expect(pending.secrets).toEqual([expect.objectContaining({ id: shown.secretId, disabledAt: null })]);
    expect(JSON.stringify(pending)).not.toContain(shown.secret);
    expect(await noticeOf({ registered: clientId })).toEqual({ key: "registered", clientId });

    expect((await runAdmin(db(), ["clients", "approve", clientId])).code).toBe(0);
    expect(await noticeOf({ registered: clientId })).toEqual({ key: "registeredApproved", clientId });
    expect(await (await tokenWith(clientId, shown.secret)).json()).toMatchObject({ error: "unauthorized_client" });
    const metadata = (await applications()).find(({ client }) => client.id === clientId)!.metadata;
    const change = { ...metadata, redirect_uris: ["https://first.praxissoft.example/v2/callback"] };
    await developer.post("developer", "/interaction/developer", {
      action: "update",
      client_id: clientId,
      metadata: JSON.stringify(change),
    });
    expect(await noticeOf({ changed: clientId })).toEqual({ key: "changed", clientId });
    await runAdmin(db(), ["clients", "reject", clientId, "--reason", "Keep the callback"]);
    expect(await noticeOf({ changed: clientId })).toEqual({ key: "changedRejected", clientId, refused: true });
    await developer.post("developer", "/interaction/developer", {
      action: "update",
      client_id: clientId,
      metadata: JSON.stringify(change),
    });
    await runAdmin(db(), ["clients", "approve", clientId]);
    expect(await noticeOf({ changed: clientId })).toEqual({ key: "changedApproved", clientId });

    // A browser app gets no secret; a rejected application shows no secrets section.
    const browserApp = await register(developer, {
      kind: "browser",
      client_id: "praxissoft-first-spa",
      client_name: "First SPA",
      redirect_uris: "https://spa.praxissoft.example/callback",
      allowed_cors_origins: "https://spa.praxissoft.example",
    });
    expect(browserApp.headers.getSetCookie().join()).not.toContain("optigate_developer_secret");
    expect(await db().clientSecret.count({ where: { clientId: "praxissoft-first-spa" } })).toBe(0);
    await register(developer, {
      kind: "web",
      client_id: "praxissoft-refused",
      client_name: "Refused",
      redirect_uris: "https://refused.praxissoft.example/callback",
    });
    await runAdmin(db(), ["clients", "reject", "praxissoft-refused", "--reason", "Unknown product"]);
    expect(await noticeOf({ registered: "praxissoft-refused" })).toEqual({
      key: "registeredRejected",
      clientId: "praxissoft-refused",
      refused: true,
    });
    expect((await applications()).find(({ client }) => client.id === "praxissoft-refused")?.secrets).toBeUndefined();
  });

  it("cannot touch another company's application or the operator's clients", async () => {
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    for (const clientId of ["demo-web", "demo-backend"]) {
      const response = await developer.post("developer", "/interaction/developer", {
        action: "secret-add",
        client_id: clientId,
      });
      expect(response.headers.get("location")).toBe("/portal/developer");
      expect(refusal(developer)?.problem).toEqual({ key: "notFound" });
    }
    const secrets = await db().clientSecret.count({ where: { clientId: "demo-web" } });
    await developer.post("developer", "/interaction/developer", {
      action: "secret-disable",
      client_id: "demo-web",
      secret_id: (await db().clientSecret.findFirstOrThrow({ where: { clientId: "demo-web" } })).id,
    });
    expect(await db().clientSecret.count({ where: { clientId: "demo-web", disabledAt: null } })).toBe(secrets);
  });
});

describe(`what a vendor's developers are told on ${testProvider()}`, () => {
  it("hears of the operator's decisions and, once, of a secret expiring within 14 days, in their language", async () => {
    const developer = await signedInAgent("developer@demo.test", "Developer#2026");
    const clientId = "praxissoft-notices";
    await register(developer, {
      kind: "web",
      client_id: clientId,
      client_name: "Notices",
      client_name_de: "Hinweise",
      redirect_uris: "https://notices.praxissoft.example/callback",
    });
    await db().outboxMessage.deleteMany({ where: { recipient: "developer@demo.test" } });
    await runAdmin(db(), ["clients", "reject", clientId, "--reason", "Name the shop in the description"]);
    await runAdmin(db(), ["clients", "approve", clientId]);
    const decisions = await db().outboxMessage.findMany({
      where: { recipient: "developer@demo.test" },
      orderBy: { createdAt: "asc" },
    });
    expect(decisions.map((mail) => [mail.kind, mail.subject])).toEqual([
      ["application_rejected", "Notices was not approved on OptiGate"],
    ]);
    // Rejected is final for a new registration: a change (here: the same metadata again) makes it pending again.
    expect(await db().client.findUniqueOrThrow({ where: { id: clientId } })).toMatchObject({ status: "rejected" });
    await db().client.update({ where: { id: clientId }, data: { status: "pending" } });
    await runAdmin(db(), ["clients", "approve", clientId]);
    const approved = await db().outboxMessage.findFirstOrThrow({ where: { kind: "application_approved" } });
    expect(approved).toMatchObject({ recipient: "developer@demo.test", subject: "Notices is approved on OptiGate" });

    await developer.post("developer", "/interaction/developer", {
      action: "secret-add",
      client_id: clientId,
      description: "soon gone",
      expires: new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10),
    });
    const { announceExpiringSecrets } = await import("@/lib/admin/partner-notices");
    const context = { stores: prismaStores(db()), config: { publicUrl: ISSUER, secretKey: SECRET_KEY } };
    expect(await announceExpiringSecrets(context)).toBe(1);
    expect(await announceExpiringSecrets(context)).toBe(0);
    const notice = await db().outboxMessage.findFirstOrThrow({ where: { kind: "secret_expiring" } });
    expect(notice).toMatchObject({ recipient: "developer@demo.test", subject: "A secret of Notices expires soon" });
    expect(openMailBody(SECRET_KEY, notice.sealedBody!).text).toMatch(/“soon gone” of Notices expires in (10|11) days/);
  });
});
