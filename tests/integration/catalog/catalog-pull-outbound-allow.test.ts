/**
 * OUTBOUND_ALLOW opens internal ranges to OptiGate's own connections (operators' key sets, identity providers), not to
 * the catalog files outside parties name: with the loopback listed there and CATALOG_PULL_ALLOW unset, the catalog
 * page's pull from a real file server on 127.0.0.1 is refused before connecting, with the page's one message.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { file, FileServer } from "../../helpers/file-server";
import { signedInAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

// The route handlers read their configuration from the environment once.
process.env.OUTBOUND_ALLOW = "127.0.0.0/8,::1/128";
delete process.env.CATALOG_PULL_ALLOW;

useOAuthService();
const server = new FileServer({ "/catalog.xml": file(readFileSync("docs/catalog-example.xml", "utf8")) });

beforeAll(() => server.start());
afterAll(() => server.close());

describe(`catalog pulls under OUTBOUND_ALLOW alone, on ${testProvider()}`, () => {
  it("does not reach the loopback", async () => {
    const supplier = await signedInAgent("supplier@demo.test", "Supplier#2026");
    for (const url of [server.url("/catalog.xml"), server.url("/catalog.xml").replace("127.0.0.1", "localhost")]) {
      const response = await supplier.post("catalogs", "/interaction/catalogs", { action: "pull", url });
      expect(response.headers.get("location"), url).toBe("/portal/catalogs?error=pull_not_fetched");
    }
    expect(server.requests).toEqual([]);
  });
});
