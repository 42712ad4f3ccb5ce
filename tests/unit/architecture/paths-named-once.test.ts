/**
 * Every path of a page, form or endpoint is written once, in lib/http/paths.ts: elsewhere code uses its name, so that a
 * moved page cannot leave a link, redirect or form behind. The route files under app/ export their own path's entry
 * of the route table, and the proxy's matcher must be literal for Next.js to read it; both are left out.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENDPOINTS, FORMS, PAGES } from "@/lib/http/paths";

const ROOT = path.resolve(import.meta.dirname, "../../..");

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(ROOT, directory)).flatMap((name) => {
    const relative = path.join(directory, name);
    if (name === "generated") return [];
    if (statSync(path.join(ROOT, relative)).isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx)$/.test(name) && name !== "route.ts" ? [relative] : [];
  });
}

const PATHS = [...Object.values(PAGES), ...Object.values(FORMS), ...Object.values(ENDPOINTS)].sort(
  (a, b) => b.length - a.length,
);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A path in quotes or a template, alone or followed by a query, fragment, further segment or placeholder. */
const WRITTEN = new RegExp(`["'\`}](${PATHS.map(escape).join("|")})(?=["'\`?#/]|\\$\\{)`, "g");

/** The quick start's snippets are other applications' code, with paths of their own (an Express app's /login). */
const FILES = [...sourceFiles("lib"), ...sourceFiles("app")].filter(
  (file) => file !== "lib/http/paths.ts" && !file.startsWith("lib/quick-start/snippets/"),
);

/** The paths written in code; comments may name them (a line that starts with `*` or `//`). */
const writtenPaths = (text: string) =>
  text
    .split("\n")
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .flatMap((line) => [...line.matchAll(WRITTEN)].map((match) => match[1]));

describe("paths", () => {
  it("recognizes a path written out", () => {
    expect(writtenPaths('seeOther("/login?returnUrl=%2F")')).toEqual(["/login"]);
    expect(writtenPaths('<form action="/interaction/admin">')).toEqual(["/interaction/admin"]);
    expect(writtenPaths("`${issuer}/connect/token`")).toEqual(["/connect/token"]);
    expect(writtenPaths("`/admin/clients/${id}`")).toEqual(["/admin/clients"]);
    expect(writtenPaths("seeOther(pageUrl(PAGES.login, { returnUrl }))")).toEqual([]);
    expect(writtenPaths(" * POST /interaction/login: the login form")).toEqual([]);
    expect(writtenPaths(" * the endpoint `/connect/register?client_id=<id>`")).toEqual([]);
  });

  it("match the proxy's matcher, which Next.js needs written out", () => {
    const proxy = readFileSync(path.join(ROOT, "proxy.ts"), "utf8");
    const matcher = [...proxy.slice(proxy.indexOf("matcher:")).matchAll(/"([^"]+)"/g)].map((match) => match[1]);
    expect(matcher.length).toBeGreaterThan(5);
    const pages: string[] = Object.values(PAGES);
    const unknown = matcher.filter((entry) =>
      entry.endsWith("/:path*")
        ? ![...pages, ...Object.values(ENDPOINTS)].some((known) => known.startsWith(entry.replace(":path*", "")))
        : !pages.includes(entry),
    );
    expect(unknown).toEqual([]);
  });

  it("are named once, in lib/http/paths.ts", () => {
    const found = FILES.flatMap((file) =>
      writtenPaths(readFileSync(path.join(ROOT, file), "utf8")).map((written) => `${file}: ${written}`),
    );
    expect(found).toEqual([]);
  });
});
