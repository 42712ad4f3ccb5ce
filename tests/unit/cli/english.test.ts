import { describe, expect, it } from "vitest";
import { counted, listed } from "@/lib/cli/english";

describe("counted", () => {
  it.each<[number, string, string | undefined, string]>([
    [0, "article", undefined, "0 articles"],
    [1, "article", undefined, "1 article"],
    [2, "article", undefined, "2 articles"],
    [1, "more error", undefined, "1 more error"],
    [30, "more error", undefined, "30 more errors"],
    [1, "company", "companies", "1 company"],
    [3, "company", "companies", "3 companies"],
  ])("%i %s (%s) is %j", (count, noun, plural, text) => {
    expect(counted(count, noun, plural)).toBe(text);
  });
});

describe("listed", () => {
  it.each([
    [[], ""],
    [["<a>"], "<a>"],
    [["<a>", "<b>"], "<a> and <b>"],
    [["<a>", "<b>", "<c>"], "<a>, <b> and <c>"],
  ])("%j is %j", (items, text) => {
    expect(listed(items)).toBe(text);
  });
});
