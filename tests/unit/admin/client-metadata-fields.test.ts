/** The readers of single RFC 7591 metadata fields, each refusing a bad value with invalid_client_metadata. */
import { describe, expect, it } from "vitest";
import { ClientMetadataError } from "@/lib/admin/client-metadata-error";
import { localizedText, optionalString, refreshTokenPolicy, stringList } from "@/lib/admin/client-metadata-fields";
import { thrown } from "../../helpers/thrown";

/** The error and message of what `read` throws. */
function refusal(read: () => unknown) {
  const error = thrown(ClientMetadataError, read);
  return { error: error.code, message: error.message };
}
const invalid = (message: string) => ({ error: "invalid_client_metadata", message });

describe("optionalString", () => {
  it.each([
    [{}, undefined],
    [{ client_name: "Shop" }, "Shop"],
    [{ client_name: " Shop " }, " Shop "],
  ])("reads client_name of %j: %j", (metadata, value) => {
    expect(optionalString(metadata, "client_name")).toBe(value);
  });

  it.each([[""], ["  "], [7], [null], [["Shop"]]])("refuses %j", (value) => {
    expect(refusal(() => optionalString({ client_name: value }, "client_name"))).toEqual(
      invalid("client_name must be a non-empty string"),
    );
  });
});

describe("stringList", () => {
  const uris = (count: number) => Array.from({ length: count }, (_, index) => `https://a.example/${index}`);

  it.each([
    [{}, undefined],
    [{ redirect_uris: [] }, []],
    [{ redirect_uris: ["https://a.example/cb"] }, ["https://a.example/cb"]],
    [{ redirect_uris: uris(50) }, uris(50)],
    [{ redirect_uris: [`https://a.example/${"x".repeat(1982)}`] }, [`https://a.example/${"x".repeat(1982)}`]],
  ])("reads %#", (metadata, list) => {
    expect(stringList(metadata, "redirect_uris")).toEqual(list);
  });

  it.each([
    ["a string", "https://a.example/cb", "redirect_uris must be an array of non-empty strings"],
    ["an empty entry", ["https://a.example/cb", ""], "redirect_uris must be an array of non-empty strings"],
    ["an entry that is no string", [42], "redirect_uris must be an array of non-empty strings"],
    ["51 entries", uris(51), "redirect_uris may list at most 50 entries"],
    [
      "an entry of 2001 characters",
      [`https://a.example/${"x".repeat(1983)}`],
      "redirect_uris entries must be at most 2000 characters",
    ],
    [
      "a repeated entry",
      ["https://a.example/1", "https://a.example/2", "https://a.example/1"],
      'redirect_uris lists "https://a.example/1" twice',
    ],
  ])("refuses %s", (_, value, message) => {
    expect(refusal(() => stringList({ redirect_uris: value }, "redirect_uris"))).toEqual(invalid(message));
  });
});

describe("localizedText", () => {
  it.each([
    [{}, {}],
    [{ client_name: " Shop " }, { default: "Shop" }],
    [
      { client_name: "Shop", "client_name#de": "Laden" },
      { default: "Shop", de: "Laden" },
    ],
    [{ "client_name#DE-ch": "Lade" }, { "de-ch": "Lade" }],
    [{ "client_name#gsw": "Lädeli" }, { gsw: "Lädeli" }],
    [{ client_name: "Shop", "logo_uri#de": "https://a.example/l.png", tos_uri: "x" }, { default: "Shop" }],
    [{ client_name: "n".repeat(500) }, { default: "n".repeat(500) }],
  ])("reads %j", (metadata, text) => {
    expect(localizedText(metadata, "client_name")).toEqual(text);
  });

  it.each([
    ["a tag too short", { "client_name#d": "Laden" }, "client_name#d has an invalid language tag"],
    ["an empty tag", { "client_name#": "Laden" }, "client_name# has an invalid language tag"],
    ["a tag with an underscore", { "client_name#de_DE": "Laden" }, "client_name#de_DE has an invalid language tag"],
    ["two tags", { "client_name#de#ch": "Laden" }, "client_name#de#ch has an invalid language tag"],
    ["a value that is no string", { client_name: 1 }, "client_name must be a non-empty string"],
    ["an empty value", { "client_name#de": " " }, "client_name#de must be a non-empty string"],
    [
      "a value of 501 characters",
      { client_name: "n".repeat(501) },
      "client_name must be at most 500 characters without control characters",
    ],
    [
      "a control character",
      { client_name: "Shop\nInc" },
      "client_name must be at most 500 characters without control characters",
    ],
  ])("refuses %s", (_, metadata, message) => {
    expect(refusal(() => localizedText(metadata, "client_name"))).toEqual(invalid(message));
  });
});

describe("refreshTokenPolicy", () => {
  it.each<[Record<string, unknown>, boolean, boolean, "reuse" | "rotate"]>([
    [{}, false, false, "reuse"],
    [{}, false, true, "reuse"],
    [{}, true, false, "rotate"],
    [{}, true, true, "rotate"],
    [{ refresh_token_policy: "reuse" }, false, true, "reuse"],
    [{ refresh_token_policy: "rotate" }, false, true, "rotate"],
    [{ refresh_token_policy: "rotate" }, true, true, "rotate"],
    [{ refresh_token_policy: "reuse" }, false, false, "reuse"],
  ])("%j, public %s, offline %s: %s", (metadata, publicClient, offline, policy) => {
    expect(refreshTokenPolicy(metadata, publicClient, offline)).toBe(policy);
  });

  it.each<[string, Record<string, unknown>, boolean, boolean, string]>([
    [
      "an unknown policy",
      { refresh_token_policy: "slide" },
      false,
      true,
      'refresh_token_policy must be "reuse" or "rotate"',
    ],
    [
      "a policy that is no string",
      { refresh_token_policy: true },
      false,
      true,
      "refresh_token_policy must be a non-empty string",
    ],
    [
      "reuse for a public client",
      { refresh_token_policy: "reuse" },
      true,
      true,
      'refresh_token_policy "reuse" is not allowed for public clients: their refresh tokens are always rotated (RFC 9700 §4.14.2)',
    ],
    [
      "rotate for a client without offline access",
      { refresh_token_policy: "rotate" },
      false,
      false,
      "refresh_token_policy applies to offline clients only",
    ],
  ])("refuses %s", (_, metadata, publicClient, offline, message) => {
    expect(refusal(() => refreshTokenPolicy(metadata, publicClient, offline))).toEqual(invalid(message));
  });
});
