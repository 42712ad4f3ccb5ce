import { describe, expect, it } from "vitest";
import { closestName, didYouMean, editDistance } from "@/lib/errors/did-you-mean";

const FIELDS = ["redirect_uris", "post_logout_redirect_uris", "client_name", "client_id", "scope", "jwks", "jwks_uri"];
const GROUPS = ["clients", "keys", "catalogs", "federation", "purge", "help"];

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["abc", "", 3],
    ["", "abc", 3],
    ["list", "list", 0],
    ["List", "list", 0],
    ["lst", "list", 1],
    ["lisst", "list", 1],
    ["lsit", "list", 1],
    ["redirect_uri", "redirect_uris", 1],
    ["redirectUris", "redirect_uris", 1],
    ["kitten", "sitting", 3],
  ])("%j to %j is %i", (from, to, distance) => {
    expect(editDistance(from, to)).toBe(distance);
    expect(editDistance(to, from)).toBe(distance);
  });
});

describe("closestName", () => {
  it.each<[string, readonly string[], string | undefined]>([
    ["redirect_uri", FIELDS, "redirect_uris"],
    ["redirect_url", FIELDS, "redirect_uris"],
    ["post_logout_redirect_uri", FIELDS, "post_logout_redirect_uris"],
    ["clientname", FIELDS, "client_name"],
    ["Scope", FIELDS, "scope"],
    ["jwks_url", FIELDS, "jwks_uri"],
    ["client", GROUPS, "clients"],
    ["catalog", GROUPS, "catalogs"],
    ["federaton", GROUPS, "federation"],
    ["key", GROUPS, "keys"],
    ["hlep", GROUPS, "help"],
    // A plural is one mistake away however it is spelt ("y" becomes "ies").
    ["company", [...GROUPS, "companies"], "companies"],
    // Too far from every name to be a typo of one.
    ["colour", FIELDS, undefined],
    ["certificates", GROUPS, undefined],
    ["x", GROUPS, undefined],
    ["", GROUPS, undefined],
    // Known names are not suggested for themselves.
    ["scope", FIELDS, undefined],
    ["y".repeat(1000), ["y".repeat(1000)], undefined],
  ])("%j among %j is %j", (given, known, expected) => {
    expect(closestName(given, known)).toBe(expected);
  });

  it("takes the first of equally close names", () => {
    expect(closestName("jwk", ["jwks", "jwt"])).toBe("jwks");
  });
});

describe("didYouMean", () => {
  it.each([
    ["redirect_uri", FIELDS, ' (did you mean "redirect_uris"?)'],
    ["colour", FIELDS, ""],
  ])("%j gives %j", (given, known, text) => {
    expect(didYouMean(given, known)).toBe(text);
  });
});
