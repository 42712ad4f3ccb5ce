/** LOG_FORMAT=pretty: a line of text per page or API call, without static files or prefetches; other lines readable. */
import { describe, expect, it } from "vitest";
import { prettyLine } from "@/lib/observability/pretty-log";

const request = (fields: Record<string, unknown>) =>
  JSON.stringify({
    level: "info",
    time: "2026-11-28T02:00:00.000Z",
    msg: "request",
    method: "GET",
    status: 200,
    ...fields,
  });

describe("prettyLine", () => {
  it.each([
    [{ path: "/portal/catalogs", durationMs: 34.4 }, "GET /portal/catalogs 200 34 ms"],
    [
      { method: "POST", path: "/connect/token", status: 401, durationMs: 2.6, clientId: "demo-web" },
      "POST /connect/token 401 3 ms",
    ],
    [{ path: "/getSubCatalog.ashx", durationMs: 0.2 }, "GET /getSubCatalog.ashx 200 0 ms"],
    [{ path: "/v2/openapi.json", durationMs: 5 }, "GET /v2/openapi.json 200 5 ms"],
  ])("writes a page or API call %o as one line", (fields, line) => {
    expect(prettyLine(request(fields))).toBe(line);
  });

  it.each([
    "/_next/static/chunks/app/layout-0a1b2c.js",
    "/_next/static/css/app.css",
    "/_next/static/media/inter-latin.woff2",
    "/_next/image",
    "/icon.svg",
    "/favicon.ico",
    "/docs/api-reference.js",
  ])("leaves the static file %s out", (path) => {
    expect(prettyLine(request({ path, durationMs: 1 }))).toBeUndefined();
  });

  it("leaves out the router's prefetch of a linked page, not the page opened", () => {
    expect(prettyLine(request({ path: "/portal/profile", durationMs: 9, prefetch: true }))).toBeUndefined();
    expect(prettyLine(request({ path: "/portal/profile", durationMs: 9 }))).toBe("GET /portal/profile 200 9 ms");
  });

  it("writes other lines as their message, with the level unless info, and an error's stack", () => {
    const line = (fields: Record<string, unknown>) => prettyLine(JSON.stringify({ time: "t", ...fields }));
    expect(
      line({ level: "info", msg: "OptiGate is serving http://localhost:3000 (port 3000, sqlite)", port: 3000 }),
    ).toBe("OptiGate is serving http://localhost:3000 (port 3000, sqlite)");
    expect(line({ level: "warn", msg: "mail is not sent" })).toBe("warn: mail is not sent");
    expect(
      line({ level: "error", msg: "purge failed", err: { message: "boom", stack: "Error: boom\n    at x" } }),
    ).toBe("error: purge failed\n  Error: boom\n      at x");
    expect(line({ level: "warn", msg: "no stack", err: { message: "boom" } })).toBe("warn: no stack (boom)");
    expect(line({ level: "info", migrations: ["0001"] })).toBe('{"migrations":["0001"]}');
    expect(prettyLine("not JSON\n")).toBe("not JSON");
  });
});
