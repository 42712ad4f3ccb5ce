/** The pure rules of a company sign-in: the role a person's groups give, and the methods a session records. */
import { describe, expect, it } from "vitest";
import { federatedAmr } from "@/lib/rights/company-sign-in-callback";
import { roleOf } from "@/lib/rights/company-sso-account";

describe("roleOf", () => {
  const roles = { admins: "admin", devs: "developer", staff: "user" };
  it.each([
    [undefined, "user"],
    [[], "user"],
    [["unmapped"], "user"],
    [["staff", "devs"], "developer"],
    [["devs", "admins", "staff"], "admin"],
    [["constructor", "__proto__"], "user"],
  ])("gives %j the role %s", (groups, role) => {
    expect(roleOf(roles, groups as string[] | undefined)).toBe(role);
  });
});

describe("federatedAmr", () => {
  it.each([
    [undefined, ["fed"]],
    [["pwd"], ["fed", "pwd"]],
    [
      ["pwd", "mfa", "sms", "fed"],
      ["fed", "pwd", "mfa"],
    ],
    [["face", "kba"], ["fed"]],
  ])("records %j as %j", (upstream, amr) => {
    expect(federatedAmr(upstream)).toEqual(amr);
  });
});
