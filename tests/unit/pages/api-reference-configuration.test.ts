/**
 * What the API reference pages hand Scalar: the document with a pasted-token scheme on every secured operation and
 * the page's origin as its first server, and settings that leave Scalar nothing to fetch from elsewhere.
 */
import { describe, expect, it } from "vitest";
import { scalarConfiguration, withPastedToken } from "@/lib/pages/api-reference-configuration";

const DOCUMENT = {
  openapi: "3.1.0",
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/v2/openapi.json": { get: { operationId: "getOpenApi", responses: {} } },
    "/v2/catalogs": {
      get: { operationId: "listCatalogs", security: [{ oauth2: ["platform.catalogs.read"] }], responses: {} },
    },
  },
  components: { securitySchemes: { oauth2: { type: "oauth2", flows: {} } } },
};

describe("the document the reference shows", () => {
  it("offers a pasted bearer token first on every secured operation, beside the scopes of OAuth 2.0", () => {
    const shown = withPastedToken(DOCUMENT, "https://id.example.com");
    expect(shown.paths["/v2/catalogs"].get.security).toEqual([{ bearer: [] }, { oauth2: ["platform.catalogs.read"] }]);
    expect(shown.paths["/v2/openapi.json"].get).toEqual(DOCUMENT.paths["/v2/openapi.json"].get);
    expect(shown.components.securitySchemes).toMatchObject({
      bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      oauth2: { type: "oauth2" },
    });
    expect(DOCUMENT.paths["/v2/catalogs"].get.security).toHaveLength(1);
  });

  it("sends requests to the page's own origin first, listed once", () => {
    expect(withPastedToken(DOCUMENT, "https://id.example.com").servers).toEqual([
      { url: "https://id.example.com" },
      { url: "https://api.example.com" },
    ]);
    expect(withPastedToken(DOCUMENT, "https://api.example.com").servers).toEqual([{ url: "https://api.example.com" }]);
  });
});

describe("Scalar's settings", () => {
  it("name no other origin and turn off fonts, proxy, agent, MCP, telemetry and the developer tools", () => {
    const settings = scalarConfiguration(DOCUMENT, "de");
    expect(JSON.stringify({ ...settings, content: undefined })).not.toMatch(/https?:/);
    expect(settings).toMatchObject({
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: "never",
      authentication: { preferredSecurityScheme: "bearer" },
      localization: { locale: "de" },
    });
    expect(settings).not.toHaveProperty("proxyUrl");
  });
});
