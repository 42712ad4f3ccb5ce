/**
 * What a quick start is filled in with, and what it is made of: OptiGate's issuer and one application's registration
 * go in; files of code and settings come out, each rendered by a pure function of these values, so that the partner
 * portal's page and the tests show and run the same text. Secrets never go in: a snippet names where the secret
 * comes from, and the `.env` holds a placeholder for it.
 */
import type { RegisteredClient } from "@/lib/store/models/client";

/** What the snippets need of a registration. */
type QuickStartClient = Pick<
  RegisteredClient,
  "id" | "kind" | "tokenEndpointAuthMethod" | "grantTypes" | "redirectUris" | "postLogoutRedirectUris" | "allowedScopes"
>;

export interface QuickStartValues {
  /** OptiGate's issuer (PUBLIC_URL), compared exactly by every library. */
  issuer: string;
  client: QuickStartClient;
}

/** One file of a snippet: its usual name in a project, the language it is written in, and its text. */
export interface SnippetFile {
  name: string;
  language: "dotenv" | "typescript" | "javascript" | "csharp" | "yaml" | "kotlin";
  text: string;
}

type SnippetId = "authjs" | "express" | "aspnet" | "spring" | "appauth-browser" | "appauth-desktop" | "appauth-android";

export interface Snippet {
  id: SnippetId;
  /** The framework and library, by their own names (not translated). */
  title: string;
  files: SnippetFile[];
}

/** What stands in the `.env` for a value the developer fills in: never a real secret. */
export const SECRET_PLACEHOLDER = "paste-your-client-secret-here";
export const RANDOM_PLACEHOLDER = "replace-with-the-output-of-openssl-rand-base64-32";

export const scopeOf = ({ client }: QuickStartValues): string => client.allowedScopes.join(" ");

/** The demo's issuer is plain http; the libraries that refuse it need a line that production must not keep. */
export const isPlainHttp = ({ issuer }: QuickStartValues): boolean => issuer.startsWith("http:");

/**
 * The redirect URI a framework will use: the first registered one whose path ends with the framework's own callback
 * path, else the first registered one (the snippet then says how to make the two meet).
 */
export function redirectUriFor({ client }: QuickStartValues, frameworkPath: string): string | undefined {
  return client.redirectUris.find((uri) => endsWithPath(uri, frameworkPath)) ?? client.redirectUris[0];
}

/** The URI is the framework's callback path under some base URL, with no query. */
export function endsWithPath(uri: string, path: string): boolean {
  const url = new URL(uri);
  return url.search === "" && url.pathname.endsWith(path);
}

/** A value written into a `.env` line: quoted when dotenv would otherwise cut or change it. */
export function envValue(value: string): string {
  return /^[\w.:/@?&=%+,~-]*$/.test(value) ? value : JSON.stringify(value);
}

/** A string literal in C#, JavaScript or a YAML scalar: JSON's escaping is valid in each of them. */
export const literal = (value: string): string => JSON.stringify(value);

/** A Kotlin string literal: JSON's escaping, and `$`, which would start a string template. */
export const kotlinLiteral = (value: string): string => literal(value).replace(/\$/g, "\\$");
