/** Identifiers break only after their own separators, in pieces short runs keep together. */
import { describe, expect, it } from "vitest";
import { identifierPieces } from "@/lib/pages/identifier-pieces";

describe("identifierPieces", () => {
  it.each([
    ["demo-backend", ["demo-backend"]],
    ["praxissoft-shop-1764294000000", ["praxissoft-shop-", "1764294000000"]],
    ["3f2a9c1e-7b4d-4e8a-9f0c-1a2b3c4d5e6f", ["3f2a9c1e-7b4d-4e8a-", "9f0c-1a2b3c4d5e6f"]],
    ["com.example.app:main_v2", ["com.example.app:", "main_v2"]],
    ["https://login.example.com/realms/opticians", ["https://login.", "example.com/realms/", "opticians"]],
    ["urn:ietf:params:oauth:grant-type:device_code", ["urn:ietf:params:", "oauth:grant-type:", "device_code"]],
    ["a".repeat(40), ["a".repeat(40)]],
    [`${"b".repeat(30)}-x`, [`${"b".repeat(30)}-`, "x"]],
    ["", []],
  ])("%s", (id, pieces) => {
    expect(identifierPieces(id)).toEqual(pieces);
    expect(identifierPieces(id).join("")).toBe(id);
  });

  it("keeps pieces within the length asked for where the separators allow", () => {
    expect(identifierPieces("ab-cd-ef-gh", 6)).toEqual(["ab-cd-", "ef-gh"]);
    expect(identifierPieces("ab-cd-ef-gh", 3)).toEqual(["ab-", "cd-", "ef-", "gh"]);
  });
});
