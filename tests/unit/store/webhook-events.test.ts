/** Which webhook events each audit event is, with their data and whose company each is. */
import { describe, expect, it } from "vitest";
import type { AuditEvent } from "@/lib/store/models/audit-event";
import { endpointGets, webhookEventsOf, webhookPayload } from "@/lib/store/webhook-events";

const cases: [string, AuditEvent, unknown[]][] = [
  [
    "an accepted invitation: a user made, an invitation accepted",
    {
      type: "user.joined",
      userId: "u-1",
      details: { subjectUserId: "u-1", username: "pia@shop.example", companyId: "c-1", invitationId: "i-1" },
    },
    [
      { type: "user.created", data: { userId: "u-1", method: "invitation" }, company: { companyId: "c-1" } },
      { type: "invitation.accepted", data: { invitationId: "i-1", userId: "u-1" }, company: { companyId: "c-1" } },
    ],
  ],
  [
    "a user made just in time at the company's provider",
    { type: "company.sso_identity_linked", userId: "u-2", details: { companyId: "c-1", createdUser: true } },
    [{ type: "user.created", data: { userId: "u-2", method: "sso" }, company: { companyId: "c-1" } }],
  ],
  [
    "an existing user's upstream account linked",
    { type: "company.sso_identity_linked", userId: "u-2", details: { companyId: "c-1", createdUser: false } },
    [],
  ],
  [
    "a user deactivated",
    { type: "user.deactivated", userId: "admin", details: { subjectUserId: "u-3", username: "x@y.example" } },
    [{ type: "user.deactivated", data: { userId: "u-3" }, company: { userId: "u-3" } }],
  ],
  [
    "a user erased, the company named",
    { type: "user.removed", details: { subjectUserId: "u-4", companyId: "c-2" } },
    [{ type: "user.erased", data: { userId: "u-4" }, company: { companyId: "c-2" } }],
  ],
  ["an invited person erased, who never was a user", { type: "user.removed", details: { subject: "removed:x" } }, []],
  [
    "a vendor's application registered, to be reviewed",
    { type: "client.registered", clientId: "app-1", details: { kind: "web", owner: "v-1", status: "pending" } },
    [{ type: "client.pending", data: { clientId: "app-1" }, company: { companyId: "v-1" } }],
  ],
  ["a client the operator registered", { type: "client.registered", clientId: "op-1", details: { kind: "web" } }, []],
  [
    "a vendor's change to an approved application",
    { type: "client.updated", clientId: "app-1", details: { pending: true } },
    [{ type: "client.pending", data: { clientId: "app-1" }, company: { clientId: "app-1" } }],
  ],
  ["the operator's change of a client", { type: "client.updated", clientId: "op-1" }, []],
  [
    "an application approved",
    { type: "client.approved", clientId: "app-1", details: {} },
    [{ type: "client.approved", data: { clientId: "app-1" }, company: { clientId: "app-1" } }],
  ],
  [
    "a consent withdrawn",
    { type: "consent.revoked", userId: "u-5", clientId: "app-2", details: { refreshTokens: 1 } },
    [{ type: "consent.revoked", data: { userId: "u-5", clientId: "app-2" }, company: { userId: "u-5" } }],
  ],
  [
    "a catalog revision released",
    { type: "catalog.released", details: { supplierCompanyId: "s-1", catalogId: "cat.xml", revision: 3 } },
    [{ type: "catalog.released", data: { catalogId: "cat.xml", revision: 3 }, company: { companyId: "s-1" } }],
  ],
  [
    "a registration approved",
    { type: "registration.changed", details: { registrationId: "r-1", from: "requested", to: "active" } },
    [
      {
        type: "registration.decided",
        data: { registrationId: "r-1", decision: "approved" },
        company: { registrationId: "r-1" },
      },
    ],
  ],
  [
    "a registration rejected",
    { type: "registration.changed", details: { registrationId: "r-1", from: "requested", to: "rejected" } },
    [
      {
        type: "registration.decided",
        data: { registrationId: "r-1", decision: "rejected" },
        company: { registrationId: "r-1" },
      },
    ],
  ],
  [
    "a registration withdrawn (no decision)",
    { type: "registration.changed", details: { registrationId: "r-1", from: "active", to: "withdrawn" } },
    [],
  ],
  [
    "a failed password that locked the account",
    {
      type: "sign_in.failed",
      userId: "u-6",
      details: { reason: "invalid_credentials", locked: true, lockedUntil: "2026-11-27T10:15:00.000Z" },
    },
    [
      {
        type: "signin.failed.locked",
        data: { userId: "u-6", cause: "password", lockedUntil: "2026-11-27T10:15:00.000Z" },
        company: { userId: "u-6" },
      },
    ],
  ],
  ["a failed password short of the lock", { type: "sign_in.failed", userId: "u-6", details: { reason: "x" } }, []],
  ["a failure for an unknown account", { type: "sign_in.failed", details: { locked: true } }, []],
  [
    "a wrong second-factor code that locked the account",
    { type: "user.second_factor_failed", userId: "u-7", details: { method: "code", locked: true } },
    [
      {
        type: "signin.failed.locked",
        data: { userId: "u-7", cause: "second_factor", lockedUntil: null },
        company: { userId: "u-7" },
      },
    ],
  ],
  ["a token's sign-in (the hot path)", { type: "sign_in.succeeded", userId: "u-1" }, []],
  ["a refresh token revoked", { type: "token.revoked", clientId: "app-1" }, []],
];

describe("webhook events of audit events", () => {
  it.each(cases)("%s", (_name, event, expected) => {
    expect(webhookEventsOf(event)).toEqual(expected);
  });

  it("bounds the ids it copies and ignores ids that are not text", () => {
    const [event] = webhookEventsOf({ type: "user.deactivated", details: { subjectUserId: "u".repeat(5000) } });
    expect((event.data.userId as string).length).toBe(200);
    expect(webhookEventsOf({ type: "user.deactivated", details: { subjectUserId: { id: 1 } } })).toEqual([]);
  });

  it("writes the Standard Webhooks body with the company ids, and sends a company's events to it alone", () => {
    const [event] = webhookEventsOf({ type: "user.deactivated", details: { subjectUserId: "u-3" } });
    const companies = { companyIds: ["c-1"], data: { companyId: "c-1" } };
    expect(JSON.parse(webhookPayload(event, companies, new Date("2026-11-27T10:00:00Z")))).toEqual({
      type: "user.deactivated",
      timestamp: "2026-11-27T10:00:00.000Z",
      data: { userId: "u-3", companyId: "c-1" },
    });
    expect([null, "c-1", "c-2"].map((owner) => endpointGets(owner, companies))).toEqual([true, true, false]);
    expect(endpointGets("c-1", { companyIds: [], data: { companyId: null } })).toBe(false);
  });
});
