/**
 * The application's settings as a `.env` file: the names the Node.js snippets read (Next.js reads `.env` itself,
 * Node.js with `--env-file`), the values of the registration, and a placeholder where the secret goes.
 */
import { usesSecrets } from "@/lib/admin/client-registry";
import { envValue, scopeOf, SECRET_PLACEHOLDER, type QuickStartValues, type SnippetFile } from "./quick-start-values";

/** `NAME=value` lines, each preceded by its comment lines; absent values leave their line out. */
export function envLines(entries: [name: string, value: string | undefined, ...comments: string[]][]): string {
  return entries
    .filter(([, value]) => value !== undefined)
    .flatMap(([name, value, ...comments]) => [
      ...comments.map((comment) => `# ${comment}`),
      `${name}=${envValue(value!)}`,
    ])
    .join("\n")
    .concat("\n");
}

export function envFile(values: QuickStartValues): SnippetFile {
  const { issuer, client } = values;
  return {
    name: ".env",
    language: "dotenv",
    text: envLines([
      ["OPTIGATE_ISSUER", issuer, `OptiGate sign-in of ${client.id}`],
      ["OPTIGATE_CLIENT_ID", client.id],
      [
        "OPTIGATE_CLIENT_SECRET",
        usesSecrets(client) ? SECRET_PLACEHOLDER : undefined,
        "Your client secret from the partner portal: keep it out of version control.",
      ],
      ["OPTIGATE_REDIRECT_URI", client.redirectUris[0]],
      ["OPTIGATE_POST_LOGOUT_REDIRECT_URI", client.postLogoutRedirectUris[0]],
      ["OPTIGATE_SCOPE", scopeOf(values)],
    ]),
  };
}
