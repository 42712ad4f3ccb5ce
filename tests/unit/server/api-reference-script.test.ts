/** The renderer of the API reference pages, served from the installed package: the script, its caching, HEAD. */
import { describe, expect, it } from "vitest";
import { handleApiReferenceScript } from "@/lib/server/api-reference-script";

const SCRIPT_URL = "https://id.example.com/docs/api-reference.js";

describe("GET /docs/api-reference.js", () => {
  it("serves Scalar's standalone browser build as JavaScript, cached and revalidated by its ETag", async () => {
    const response = await handleApiReferenceScript(new Request(SCRIPT_URL));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(await response.text()).toContain("window.Scalar={createApiReference");
    const etag = response.headers.get("etag")!;
    const again = await handleApiReferenceScript(new Request(SCRIPT_URL, { headers: { "If-None-Match": etag } }));
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
  });

  it("answers HEAD with the length and no body", async () => {
    const response = await handleApiReferenceScript(new Request(SCRIPT_URL, { method: "HEAD" }));
    expect(response.status).toBe(200);
    expect(Number(response.headers.get("content-length"))).toBeGreaterThan(1_000_000);
    expect(response.body).toBeNull();
  });
});
