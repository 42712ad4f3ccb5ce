import { describe, expect, it } from "vitest";
import { prefersXml } from "@/lib/api/catalog-routes";
import { decodeCursor, encodeCursor } from "@/lib/api/cursor";
import { ApiProblem } from "@/lib/errors/api-problem";
import { matchesEntityTag } from "@/lib/http/entity-tags";

describe("entity tags (RFC 9110)", () => {
  it("compares If-None-Match weakly and If-Match strongly, lists and * included", () => {
    expect(matchesEntityTag('"a"', '"a"', "weak")).toBe(true);
    expect(matchesEntityTag('W/"a"', '"a"', "weak")).toBe(true);
    expect(matchesEntityTag('W/"a"', '"a"', "strong")).toBe(false);
    expect(matchesEntityTag('"x", "a"', '"a"', "strong")).toBe(true);
    expect(matchesEntityTag("*", '"a"', "strong")).toBe(true);
    expect(matchesEntityTag('"b"', '"a"', "weak")).toBe(false);
    expect(matchesEntityTag("a", '"a"', "weak")).toBe(false);
    expect(matchesEntityTag('"a" junk', '"a"', "weak")).toBe(false);
    expect(matchesEntityTag(null, '"a"', "weak")).toBe(false);
  });
});

describe("API cursors", () => {
  const key = "unit-test-secret-key-0123456789abcdef";
  it("round-trip for their list and refuse other lists, other keys and any change", () => {
    const cursor = encodeCursor(key, "catalogs?{}", { supplierId: "DLAG", catalogId: "catalog.xml" });
    expect(decodeCursor(key, "catalogs?{}", cursor)).toEqual({ supplierId: "DLAG", catalogId: "catalog.xml" });
    expect(() => decodeCursor(key, 'catalogs?{"validCountry":"DE"}', cursor)).toThrow(ApiProblem);
    expect(() => decodeCursor(`${key}x`, "catalogs?{}", cursor)).toThrow(ApiProblem);
    const [text, mac] = cursor.split(".");
    expect(() => decodeCursor(key, "catalogs?{}", `${text}A.${mac}`)).toThrow(ApiProblem);
    expect(() => decodeCursor(key, "catalogs?{}", `${text}.${mac}.x`)).toThrow(ApiProblem);
    // Characters base64url decoding would skip are a change too.
    expect(() => decodeCursor(key, "catalogs?{}", `${text}.${mac}==`)).toThrow(ApiProblem);
    expect(() => decodeCursor(key, "catalogs?{}", `${text}=.${mac}`)).toThrow(ApiProblem);
    expect(() => decodeCursor(key, "catalogs?{}", "")).toThrow(ApiProblem);
  });
});

describe("content negotiation of article pages", () => {
  it("sends XML only when Accept ranks it above JSON", () => {
    expect(prefersXml("application/xml")).toBe(true);
    expect(prefersXml("text/xml, application/json;q=0.5")).toBe(true);
    expect(prefersXml("application/xml;q=0.5, application/json")).toBe(false);
    expect(prefersXml("*/*")).toBe(false);
    expect(prefersXml(null)).toBe(false);
    expect(prefersXml("application/json, application/xml")).toBe(false);
  });
});
