/**
 * What the API reference pages hand Scalar (in the browser): the OpenAPI document as the API serves it, with two
 * additions for trying requests, and the settings that keep Scalar from reaching anything but this origin.
 * - A bearer scheme beside the document's OAuth 2.0 one, chosen first, so that a request offers a field for an access
 *   token the developer pastes (the OAuth 2.0 scheme still names the scopes each operation needs).
 * - The page's own origin as the first server, so that requests go from the browser straight to the OptiGate that
 *   serves the page, also where API_URL names another address.
 * - No web fonts, no request proxy, no AI agent or MCP offers, no telemetry, no developer toolbar.
 */

const BEARER_SCHEME = "bearer";

interface OpenApiDocument {
  servers?: { url: string }[];
  paths?: Record<string, Record<string, unknown>>;
  components?: { securitySchemes?: Record<string, unknown> };
}

const isOperation = (value: unknown): value is { security: Record<string, string[]>[] } =>
  typeof value === "object" &&
  value !== null &&
  Array.isArray((value as { security?: unknown }).security) &&
  (value as { security: unknown[] }).security.length > 0;

/** The document with a pasted-token scheme on every secured operation and this page's origin as its first server. */
export function withPastedToken<Document extends OpenApiDocument>(document: Document, origin: string): Document {
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => [
          method,
          isOperation(operation)
            ? { ...operation, security: [{ [BEARER_SCHEME]: [] }, ...operation.security] }
            : operation,
        ]),
      ),
    ]),
  );
  const bearer = {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "An access token from OptiGate's token endpoint, pasted here; it stays in this browser tab.",
  };
  return {
    ...document,
    servers: [{ url: origin }, ...(document.servers ?? []).filter((server) => server.url !== origin)],
    paths,
    components: {
      ...document.components,
      securitySchemes: { [BEARER_SCHEME]: bearer, ...document.components?.securitySchemes },
    },
  };
}

/**
 * OptiGate's system fonts (Scalar otherwise fetches its own) and brand colour; grey text and the methods' colours
 * darkened to WCAG AA contrast on Scalar's light backgrounds. Scalar marks the body light-mode; `body.` outranks its
 * theme's `.light-mode` rules, and its dark code cards keep their own colours.
 */
const CUSTOM_CSS = `
.scalar-app {
  --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
}
body.light-mode {
  --scalar-color-accent: #165262;
  --scalar-color-2: #595959;
  --scalar-color-3: #616161;
  --scalar-color-green: #065f46;
  --scalar-color-red: #b91c1c;
  --scalar-color-yellow: #854d0e;
  --scalar-color-blue: #1d4ed8;
  --scalar-color-orange: #9a3412;
  --scalar-color-purple: #6d28d9;
  --scalar-color-query: #005f63;
}
`;

/** The settings of Scalar's createApiReference for one document, in the page's language where Scalar has it. */
export function scalarConfiguration(content: object, locale: string) {
  return {
    content,
    authentication: { preferredSecurityScheme: BEARER_SCHEME },
    persistAuth: false,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
    documentDownloadType: "none",
    hideDarkModeToggle: true,
    forceDarkModeState: "light",
    localization: { locale },
    customCss: CUSTOM_CSS,
  };
}
