import { describe, expect, it } from "vitest";
import { afterLogin, authorizeParametersOf, safeLocalPath } from "@/lib/interaction/return-url";
import { chosenScopes } from "@/lib/interaction/consent-submission";

describe("return URLs", () => {
  it("only follow local paths", () => {
    expect(safeLocalPath("/connect/authorize?a=1")).toBe("/connect/authorize?a=1");
    for (const bad of ["//evil.example/", "/\\evil.example", "https://evil.example/", "javascript:alert(1)", "", undefined]) {
      expect(safeLocalPath(bad)).toBeUndefined();
    }
  });

  it("lead back into the authorization request without prompt=login and max_age after a login", () => {
    const url = afterLogin("/connect/authorize?client_id=c&prompt=login+consent&max_age=0&state=s");
    const params = authorizeParametersOf(url)!;
    expect(params.get("prompt")).toBe("consent");
    expect(params.get("max_age")).toBeNull();
    expect(params.get("state")).toBe("s");
    expect(afterLogin("/portal/applications")).toBe("/portal/applications");
    expect(authorizeParametersOf("/portal")).toBeUndefined();
  });
});

describe("chosenScopes", () => {
  it("grants the ticked requested scopes and always openid when requested", () => {
    expect(chosenScopes(["openid", "profile", "email"], ["email", "admin"])).toEqual(["openid", "email"]);
    expect(chosenScopes(["profile"], [])).toEqual([]);
  });
});
