/** RFC 8707 resource indicators: what a client may reach, what a grant holds, and the audience of one token. */
import { describe, expect, it } from "vitest";
import { OAuthError } from "@/lib/errors/oauth-error";
import { acceptedAudiences, grantedResources, ownResources, tokenAudience } from "@/lib/oauth/resource-indicators";
import { thrown } from "../../helpers/thrown";

const config = { publicUrl: "https://id.example", apiUrl: "https://api.example" };
const PLATFORM_API = "https://api.example";
const CATALOGS = "https://id.example/services";
const PARTNER = "https://orders.partner.example/api";
const client = { allowedResources: [PARTNER] };
const target = (run: () => unknown) => thrown(OAuthError, run).code;

describe("OptiGate's own resource servers", () => {
  it("are the platform API (API_URL), the catalog services and the management API, which every client reaches", () => {
    expect(ownResources(config)).toEqual([PLATFORM_API, CATALOGS, "https://id.example/manage/v1"]);
    expect(grantedResources(config, { allowedResources: [] }, [PLATFORM_API, CATALOGS])).toEqual([
      PLATFORM_API,
      CATALOGS,
    ]);
  });

  it.each([
    ["platformApi", ["https://id.example/resources", PLATFORM_API]],
    ["catalogServices", ["https://id.example/resources", CATALOGS]],
    ["managementApi", ["https://id.example/resources", "https://id.example/manage/v1"]],
    ["userinfo", ["https://id.example/resources"]],
  ] as const)("%s accepts its own audience and the default one", (server, audiences) => {
    expect(acceptedAudiences(config, server)).toEqual(audiences);
  });
});

describe("grantedResources: what an authorization request names", () => {
  it.each<[string, string[], string[]]>([
    ["none", [], []],
    ["empty values as absent", [""], []],
    ["several, each once", [PARTNER, PLATFORM_API, PARTNER], [PARTNER, PLATFORM_API]],
  ])("%s", (_, values, granted) => {
    expect(grantedResources(config, client, values)).toEqual(granted);
  });

  it.each<[string, string[], boolean]>([
    ["another client's API", ["https://other.example/api"], false],
    ["a prefix of an allowed one", ["https://orders.partner.example"], false],
    ["a relative URI", ["/api"], false],
    ["a fragment", [`${PARTNER}#x`], false],
    ["spaces", ["https://orders.partner.example/a b"], false],
    ["an overlong URI", [`https://orders.partner.example/${"a".repeat(2000)}`], false],
    ["several for a response that carries an access token", [PARTNER, PLATFORM_API], true],
  ])("refuses %s with invalid_target", (_, values, issuesToken) => {
    expect(target(() => grantedResources(config, client, values, issuesToken))).toBe("invalid_target");
  });
});

describe("tokenAudience: the one audience of an access token", () => {
  it.each<[string, string[], string[], string | undefined]>([
    ["no resource, no grant: the default audience", [], [], undefined],
    ["one resource the client reaches", [PARTNER], [], PARTNER],
    ["the same resource twice", [PARTNER, PARTNER], [], PARTNER],
    ["the grant's only resource", [], [CATALOGS], CATALOGS],
    ["one of the grant's resources", [PLATFORM_API], [PARTNER, PLATFORM_API], PLATFORM_API],
  ])("%s", (_, values, granted, audience) => {
    expect(tokenAudience(config, client, values, granted)).toBe(audience);
  });

  it.each<[string, string[], string[], { allowedResources: string[] }]>([
    ["several different resources", [PARTNER, PLATFORM_API], [], client],
    ["a resource outside the grant", [PARTNER], [CATALOGS], client],
    ["none, when the grant holds several", [], [PARTNER, CATALOGS], client],
    ["a resource the client may not reach", ["https://other.example/api"], [], client],
    ["a granted resource the operator has taken away since", [PARTNER], [PARTNER], { allowedResources: [] }],
    ["a malformed resource", ["urn:x#y"], [], client],
  ])("refuses %s with invalid_target", (_, values, granted, reaching) => {
    expect(target(() => tokenAudience(config, reaching, values, granted))).toBe("invalid_target");
  });
});
