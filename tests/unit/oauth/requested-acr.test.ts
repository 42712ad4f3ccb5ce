import { describe, expect, it } from "vitest";
import { requestedAcr } from "@/lib/oauth/authorize/requested-acr";
import { ACR_MFA, ACR_PASSWORD } from "@/lib/session/authentication-level";

const claims = (acr: unknown) => JSON.stringify({ id_token: { acr } });

describe("the level an authorization request asks for", () => {
  it.each<[string | undefined, string | undefined, string | undefined]>([
    [ACR_MFA, undefined, ACR_MFA],
    [`urn:other:gold ${ACR_MFA} ${ACR_PASSWORD}`, undefined, ACR_MFA],
    [`${ACR_PASSWORD} ${ACR_MFA}`, undefined, ACR_PASSWORD],
    ["urn:other:gold", undefined, undefined],
    [undefined, claims({ essential: true, values: [ACR_MFA] }), ACR_MFA],
    [undefined, claims({ essential: true, value: ACR_MFA }), ACR_MFA],
    [undefined, claims({ values: [ACR_MFA] }), undefined],
    [ACR_PASSWORD, claims({ essential: true, values: [ACR_MFA] }), ACR_MFA],
    [undefined, JSON.stringify({ userinfo: { email: null } }), undefined],
  ])("acr_values %j, claims %j: %j", (acrValues, claimsParameter, expected) => {
    expect(requestedAcr(acrValues, claimsParameter)).toBe(expected);
  });

  it.each(["{not json", "[1]", "null", `{"id_token":${"[".repeat(10)}`, "x".repeat(5000)])(
    "refuses the claims parameter %j with invalid_request",
    (claimsParameter) => {
      expect(() => requestedAcr(undefined, claimsParameter)).toThrow(
        expect.objectContaining({ code: "invalid_request" }),
      );
    },
  );
});
