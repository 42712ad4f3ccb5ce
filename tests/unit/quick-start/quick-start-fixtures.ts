/**
 * Applications of each kind, registered from their RFC 7591 metadata as the partner portal registers them, and the
 * values their quick start is filled in with.
 */
import ts from "typescript";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import type { QuickStartValues } from "@/lib/quick-start/quick-start-values";

export const DEMO_ISSUER = "http://localhost:3000";
export const PRODUCTION_ISSUER = "https://id.optigate.example";

const METADATA = {
  web: {
    client_id: "praxissoft-web",
    redirect_uris: ["http://localhost:4000/callback", "https://web.praxissoft.example/callback"],
    post_logout_redirect_uris: ["http://localhost:4000/"],
    scope: "openid profile email platform.catalogs.read",
  },
  browser: {
    client_id: "praxissoft-spa",
    token_endpoint_auth_method: "none",
    redirect_uris: ["http://localhost:5173/callback"],
    allowed_cors_origins: ["http://localhost:5173"],
    scope: "openid profile",
  },
  native: {
    client_id: "praxissoft-desktop",
    application_type: "native",
    redirect_uris: ["http://127.0.0.1:8765/done"],
    scope: "openid profile",
  },
  mobile: {
    client_id: "praxissoft-mobile",
    application_type: "native",
    redirect_uris: ["com.praxissoft.app:/callback"],
    offline_access: true,
    scope: "openid profile offline_access",
  },
  device: {
    client_id: "praxissoft-edger",
    token_endpoint_auth_method: "none",
    grant_types: ["urn:ietf:params:oauth:grant-type:device_code"],
    scope: "openid profile",
  },
  backend: {
    client_id: "praxissoft-batch",
    grant_types: ["client_credentials"],
    scope: "platform.catalogs.read",
  },
  keys: {
    client_id: "praxissoft-signed",
    token_endpoint_auth_method: "private_key_jwt",
    jwks_uri: "https://web.praxissoft.example/jwks.json",
    redirect_uris: ["https://web.praxissoft.example/callback"],
    scope: "openid",
  },
} satisfies Record<string, Record<string, unknown>>;

export type Example = keyof typeof METADATA;

export function valuesOf(example: Example | Record<string, unknown>, issuer = DEMO_ISSUER): QuickStartValues {
  const metadata = typeof example === "string" ? METADATA[example] : example;
  const registration = parseClientMetadata(metadata, "platform");
  return { issuer, client: { ...registration, id: registration.id! } };
}

/** The syntax errors TypeScript finds in a TypeScript or JavaScript text. */
export function syntaxErrors(text: string): string[] {
  const { diagnostics } = ts.transpileModule(text, {
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return (diagnostics ?? []).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}
