import { describe, expect, it } from "vitest";
import { parseEmail, parseLanguage, parseName, parseRole } from "@/lib/admin/person-fields";

describe("parseEmail", () => {
  it.each([
    ["Optiker@Example.DE", "optiker@example.de"],
    ["  first.last+tag@sub.example.com ", "first.last+tag@sub.example.com"],
    [`${"a".repeat(64)}@example.com`, `${"a".repeat(64)}@example.com`],
  ])("accepts %j as %j", (raw, email) => expect(parseEmail(raw)).toBe(email));

  it.each([
    ["", /no @/],
    ["plain", /no @/],
    ["@example.com", /before @/],
    ["a@", /domain/],
    ["a@localhost", /domain/],
    ["a@-bad.com", /domain/],
    ["a b@example.com", /before @/],
    ["a\u0000@example.com", /before @/],
    ["a\r\n@example.com", /before @/],
    [".a@example.com", /before @/],
    ["a..b@example.com", /before @/],
    [`${"a".repeat(65)}@example.com`, /before @/],
    [`${"a".repeat(60)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`, /longer than 254/],
  ])("refuses %j", (raw, reason) => {
    expect(() => parseEmail(raw)).toThrow(reason);
  });
});

describe("roles, languages, names and passwords", () => {
  it("knows the three roles and the page languages only", () => {
    expect(["user", "admin", "developer"].map(parseRole)).toEqual(["user", "admin", "developer"]);
    expect(() => parseRole("Admin")).toThrow(/no role "Admin"/);
    expect(parseLanguage("de")).toBe("de");
    expect(() => parseLanguage("fr-FR")).toThrow(/no language/);
  });

  it("trims names and refuses empty, overlong or control characters", () => {
    expect(parseName("  Jürgen ", "given_name")).toBe("Jürgen");
    for (const bad of ["", "   ", "x".repeat(101), "Tab\tName"])
      expect(() => parseName(bad, "family_name")).toThrow(/family_name must be/);
  });
});
