/**
 * Which snippets fit an application: a server web application keeps a secret, so it gets the server frameworks; a
 * browser or native app keeps none and signs in with PKCE alone, so it gets AppAuth. Each choice comes with notes
 * (translated on the page) that say why the other snippets are missing.
 */
import { usesSecrets } from "@/lib/admin/client-registry";
import { envFile } from "./env-file";
import type { QuickStartValues, Snippet, SnippetFile } from "./quick-start-values";
import { appAuthAndroidSnippet, privateSchemeRedirectUri } from "./snippets/appauth-android";
import { appAuthBrowserSnippet } from "./snippets/appauth-browser";
import { appAuthDesktopSnippet } from "./snippets/appauth-desktop";
import { aspnetSnippet } from "./snippets/aspnet";
import { authjsSnippet } from "./snippets/authjs";
import { expressSnippet } from "./snippets/express";
import { springSnippet } from "./snippets/spring";

/** Why the page shows these snippets and not the others: each a message key of the page. */
type QuickStartNote = "secretKept" | "noSecret" | "nativeLoopback" | "privateKeyJwt" | "noCodeFlow" | "backend";

export interface QuickStartGuide {
  /** The application's settings under the names the Node.js snippets read. */
  env: SnippetFile;
  snippets: Snippet[];
  notes: QuickStartNote[];
}

function snippetsFor(values: QuickStartValues): Pick<QuickStartGuide, "snippets" | "notes"> {
  const { client } = values;
  if (client.kind === "backend") return { snippets: [], notes: ["backend"] };
  if (!client.grantTypes.includes("authorization_code")) return { snippets: [], notes: ["noCodeFlow"] };
  if (client.kind === "web")
    return usesSecrets(client)
      ? {
          snippets: [authjsSnippet(values), expressSnippet(values), aspnetSnippet(values), springSnippet(values)],
          notes: ["secretKept"],
        }
      : { snippets: [], notes: ["privateKeyJwt"] };
  if (client.kind === "browser") return { snippets: [appAuthBrowserSnippet(values)], notes: ["noSecret"] };
  const android = privateSchemeRedirectUri(values) ? [appAuthAndroidSnippet(values)] : [];
  return {
    snippets: [appAuthDesktopSnippet(values), ...android],
    notes: android.length > 0 ? ["noSecret"] : ["noSecret", "nativeLoopback"],
  };
}

export function quickStartGuide(values: QuickStartValues): QuickStartGuide {
  return { env: envFile(values), ...snippetsFor(values) };
}
