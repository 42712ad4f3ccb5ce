/**
 * The company page's provider form as `companies sso set`'s description (lib/forms/company-sso-settings-form.ts):
 * empty fields left out, the group mapping read one `group=role` a line, what was typed kept without the secret; and
 * the outcome that carries a test's report and a refused form's values in a cookie (lib/forms/company-sso-outcome.ts)
 * kept to what a browser holds.
 */
import { describe, expect, it } from "vitest";
import { parseCompanySso } from "@/lib/admin/company-sso-metadata";
import { companySsoAnswer, testReportOf } from "@/lib/forms/company-sso-outcome";
import {
  formFieldOf,
  providerDescription,
  SsoSettingsFormError,
  typedSettings,
} from "@/lib/forms/company-sso-settings-form";
import { thrown } from "../../helpers/thrown";

const KEYS = { secretKey: "unit-test-secret-key-0123456789abcdef", publicUrl: "https://id.example" };
const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe("the provider form", () => {
  it("leaves empty fields out, so that the defaults and the stored secret stand", () => {
    const description = providerDescription(
      form({ issuer: " https://idp.example ", client_id: "og", client_secret: "", scope: "", claim_email: "" }),
    );
    expect(description).toEqual({ issuer: "https://idp.example", client_id: "og", claims: { roles: {} } });
    expect(parseCompanySso(description, { production: true })).toMatchObject({
      scope: "openid email profile",
      authMethod: "client_secret_basic",
      claims: { email: "email", roles: {} },
    });
  });

  it.each([
    ["admins=admin", { admins: "admin" }],
    ["admins = admin\r\n\r\n  staff=user  \n", { admins: "admin", staff: "user" }],
    ["cn=admins,ou=groups=admin", { "cn=admins,ou=groups": "admin" }],
    ["", {}],
  ])("reads the group mapping %j", (roles, mapping) => {
    expect(providerDescription(form({ roles })).claims).toEqual({ roles: mapping });
  });

  it.each(["admins", "=admin", "admins=admin\nstaff"])("refuses the mapping line of %j", (roles) => {
    expect(thrown(SsoSettingsFormError, () => providerDescription(form({ roles }))).code).toBe("roles_format");
  });

  it("keeps what was typed for a refused form, cut short, and never the secret", () => {
    const typed = typedSettings(form({ issuer: "x".repeat(900), client_secret: "s3cret", roles: "a=b" }));
    expect(typed).toEqual({ issuer: "x".repeat(300), roles: "a=b" });
  });

  it.each([
    ["claims.email", "claim_email"],
    ["claims.roles", "roles"],
    ["client_secret", "client_secret"],
    ["tenant_id", "tenant_id"],
    ["claims", undefined],
    ["", undefined],
  ])("puts a refusal of %s at the field %s", (field, formField) => {
    expect(formFieldOf(field)).toBe(formField);
  });
});

describe("the outcome's cookie", () => {
  const identity = {
    issuer: "https://idp.example",
    subject: "s".repeat(500),
    email: "ada@example.com",
    emailVerified: true,
    groups: Array.from({ length: 40 }, (_, n) => `group-${n}-${"g".repeat(100)}`),
    amr: ["pwd", "mfa"],
  };

  it("reports a test's identity cut short: twelve groups and how many more", () => {
    const report = testReportOf({ ok: true, identity, emailDomainVerified: true, recorded: true });
    if (!report.ok) throw new Error("the report says the test failed");
    expect(report.identity.subject).toHaveLength(120);
    expect(report.identity.groups).toHaveLength(12);
    expect(report.identity.groups!.every((group) => group.length <= 60)).toBe(true);
    expect(report.identity.moreGroups).toBe(28);
  });

  it("fits a browser's cookie, leaving out what was typed when the whole would not", () => {
    const typed = Object.fromEntries(
      [
        "issuer",
        "client_id",
        "token_endpoint_auth_method",
        "scope",
        "claim_email",
        "claim_given_name",
        "claim_family_name",
        "claim_groups",
        "roles",
        "hosted_domain",
        "tenant_id",
      ].map((name) => [name, "v".repeat(300)]),
    );
    const test = testReportOf({ ok: true, identity, emailDomainVerified: true, recorded: true });
    for (const outcome of [
      { action: "settings" as const, problem: "invalid_issuer", field: "issuer", typed },
      { action: "test" as const, test },
    ]) {
      const cookie = companySsoAnswer(outcome, KEYS).headers.getSetCookie()[0];
      expect(cookie.length, outcome.action).toBeLessThan(4096);
    }
    const small = companySsoAnswer({ action: "settings", problem: "invalid_scope", typed: { scope: "x" } }, KEYS);
    expect(small.headers.get("location")).toBe("/portal/company#sso-settings");
  });
});
