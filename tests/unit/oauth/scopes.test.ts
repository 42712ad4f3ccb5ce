/**
 * The scopes OptiGate knows: the OpenID Connect ones, the platform API's named after the configured prefix, and the
 * management API's.
 */
import { describe, expect, it } from "vitest";
import english from "@/messages/en.json";
import {
  COMPANY_MANAGE_SCOPES,
  OFFLINE_ACCESS,
  OPENID_SCOPES,
  PLATFORM_MANAGE_SCOPES,
  scopeDefinitions,
} from "@/lib/oauth/scopes";

describe("scopeDefinitions", () => {
  it.each([
    ["platform", ["platform.catalogs.read", "platform.supplierreg.read", "platform.supplierreg.readwrite"]],
    ["acme-2", ["acme-2.catalogs.read", "acme-2.supplierreg.read", "acme-2.supplierreg.readwrite"]],
  ])("with the prefix %s: the identity scopes, the API scopes %j, then the management scopes", (prefix, api) => {
    expect(scopeDefinitions(prefix).map(({ name, kind }) => [name, kind])).toEqual([
      ["openid", "identity"],
      ["profile", "identity"],
      ["email", "identity"],
      ["offline_access", "identity"],
      ...api.map((name) => [name, "api"]),
      ...[...PLATFORM_MANAGE_SCOPES, ...COMPANY_MANAGE_SCOPES].map((name) => [name, "manage"]),
    ]);
  });

  it("names each scope's own texts, and every text is one scope's", () => {
    const keys = scopeDefinitions("platform").map((scope) => scope.textKey);
    expect([...keys].sort()).toEqual(Object.keys(english.Scopes).sort());
  });

  it.each([...OPENID_SCOPES, OFFLINE_ACCESS])("defines the exported scope name %s", (name) => {
    expect(scopeDefinitions("platform").filter((scope) => scope.name === name)).toHaveLength(1);
  });
});
