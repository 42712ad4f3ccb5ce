import { describe, expect, it } from "vitest";
import { csvFields, parseInvitationCsv } from "@/lib/admin/invitation-import";

describe("csvFields", () => {
  it.each([
    ["a,b,,d", ["a", "b", "", "d"]],
    ['"a,1","b ""quoted""",c', ["a,1", 'b "quoted"', "c"]],
    ['"",x', ["", "x"]],
    ["single", ["single"]],
  ])("splits %j", (line, fields) => expect(csvFields(line)).toEqual(fields));

  it.each(['"open', '"a"b,c', 'x,"y'])("refuses %j", (line) => expect(csvFields(line)).toBeUndefined());
});

describe("parseInvitationCsv", () => {
  it("reads rows with defaults, skipping blank lines, a byte order mark and CRLF", () => {
    const rows = parseInvitationCsv("\uFEFFEmail,Company,Role,Language\r\nA@x.de,c1,,\r\n\r\nb@x.de,c2,admin,de\r\n");
    expect(rows).toEqual([
      { line: 2, email: "a@x.de", companyId: "c1", role: "user", language: "en" },
      { line: 4, email: "b@x.de", companyId: "c2", role: "admin", language: "de" },
    ]);
  });

  it.each([
    ["", /line 1: the header/],
    ["email,company,role\n", /line 1: the header/],
    ["email,company,role,language\nx@y.de,c,,,extra\n", /line 2: has 5 fields/],
    ["email,company,role,language\nx@y.de,c,,\nX@Y.de,c,,\n", /line 3: x@y.de is already on line 2/],
    ["email,company,role,language\nx@y,c,,\n", /line 2: .*domain/],
  ])("refuses %j", (text, reason) => expect(() => parseInvitationCsv(text)).toThrow(reason));
});
