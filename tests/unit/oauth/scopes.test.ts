/** The scopes OptiGate knows: the OpenID Connect ones, and the platform API's named after the configured prefix. */
import { describe, expect, it } from "vitest";
import { OFFLINE_ACCESS, OPENID_SCOPES, scopeDefinitions } from "@/lib/oauth/scopes";

describe("scopeDefinitions", () => {
  it.each([
    ["platform", ["platform.catalogs.read", "platform.supplierreg.read", "platform.supplierreg.readwrite"]],
    ["acme-2", ["acme-2.catalogs.read", "acme-2.supplierreg.read", "acme-2.supplierreg.readwrite"]],
  ])("with the prefix %s: the identity scopes, then the API scopes %j", (prefix, api) => {
    expect(scopeDefinitions(prefix).map(({ name, kind }) => [name, kind])).toEqual([
      ["openid", "identity"],
      ["profile", "identity"],
      ["email", "identity"],
      ["offline_access", "identity"],
      ...api.map((name) => [name, "api"]),
    ]);
  });

  it.each(scopeDefinitions("platform").map((scope) => [scope.name, scope]))(
    "%s has an English and a German name and description",
    (_, scope) => {
      for (const text of [scope.displayNames, scope.descriptions]) {
        expect(Object.keys(text).sort()).toEqual(["de", "en"]);
        expect(text.en).not.toBe(text.de);
        expect(text.en?.trim()).toBeTruthy();
        expect(text.de?.trim()).toBeTruthy();
      }
    },
  );

  it.each([...OPENID_SCOPES, OFFLINE_ACCESS])("defines the exported scope name %s", (name) => {
    expect(scopeDefinitions("platform").filter((scope) => scope.name === name)).toHaveLength(1);
  });
});
