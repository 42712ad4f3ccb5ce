import { describe, expect, it } from "vitest";
import { expectArgs, unknownCommand, unreadableFile, UsageError } from "@/lib/cli/cli-arguments";
import { thrown } from "../../helpers/thrown";

const RELEASE = "catalogs release <supplierID> <catalogID> <revision>";

describe("expectArgs", () => {
  it("returns the arguments when they are as many as the usage names", () => {
    expect(expectArgs(["DLAG", "catalog.xml", "3"], RELEASE)).toEqual(["DLAG", "catalog.xml", "3"]);
    expect(expectArgs([], "keys list")).toEqual([]);
    expect(expectArgs(["c"], "clients secret add <client_id> [--expires <ISO 8601 date>]")).toEqual(["c"]);
  });

  it.each<[string[], string, string]>([
    [["DLAG", "catalog.xml"], RELEASE, "catalogs release needs <revision>"],
    [["DLAG"], RELEASE, "catalogs release needs <catalogID> and <revision>"],
    [[], RELEASE, "catalogs release needs <supplierID>, <catalogID> and <revision>"],
    [["a", "b", "c", "d"], RELEASE, 'unexpected argument "d"'],
    [["x", "y"], "keys list", 'unexpected arguments "x" and "y"'],
    [[], "clients secret add <client_id> [--expires <ISO 8601 date>]", "clients secret add needs <client_id>"],
  ])("%j for %j: %j", (args, usage, message) => {
    const error = thrown(UsageError, () => expectArgs(args, usage));
    expect(error.message).toBe(message);
    expect(error.hint).toBe(`usage: npm run admin -- ${usage}`);
  });
});

describe("unknownCommand", () => {
  it.each<[string, string | undefined, string, string | undefined]>([
    ["clients", "lst", 'unknown command "clients lst"', 'did you mean "clients list"?'],
    ["clients", "secrets", 'unknown command "clients secrets"', 'did you mean "clients secret"?'],
    ["keys", "explode", 'unknown command "keys explode"', undefined],
    ["keys", undefined, "keys needs a command: list, rotate", undefined],
  ])("%s %s", (group, given, message, hint) => {
    const error = unknownCommand(group, given, group === "keys" ? ["list", "rotate"] : ["add", "list", "secret"]);
    expect([error.message, error.hint]).toEqual([message, hint]);
  });
});

describe("unreadableFile", () => {
  const failure = (code: string) => Object.assign(new Error(`${code}: something`), { code });
  it.each([
    ["ENOENT", "file not found: a.json"],
    ["EACCES", "no permission to read a.json"],
    ["EISDIR", "a.json is a folder, not a file"],
    ["EIO", "cannot read a.json: EIO: something"],
  ])("%s: %j", (code, message) => {
    expect(unreadableFile("a.json", failure(code)).message).toBe(message);
  });
});
