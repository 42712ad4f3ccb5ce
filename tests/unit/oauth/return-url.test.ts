import { describe, expect, it } from "vitest";
import { chosenScopes } from "@/lib/rights/consent";
import { afterLogin, authorizeParametersOf } from "@/lib/oauth/authorize/return-url";

describe("return URLs into an authorization request", () => {
  it("lead back without prompt=login and max_age after a login", () => {
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
