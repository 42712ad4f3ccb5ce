/**
 * Next.js with Auth.js (next-auth 4): OptiGate as a generic OpenID Connect provider. The provider reads its values
 * from `.env` (the application's `.env` and the two Auth.js lines here), so its code is the same for every
 * application: OptiGate's example app (examples/nextjs-authjs) uses this very file, and its browser test runs it.
 */
import { envLines } from "../env-file";
import {
  endsWithPath,
  RANDOM_PLACEHOLDER,
  redirectUriFor,
  type QuickStartValues,
  type Snippet,
} from "../quick-start-values";

/** Where Auth.js takes the answer for the provider `optigate`, under NEXTAUTH_URL. */
const AUTHJS_CALLBACK_PATH = "/api/auth/callback/optigate";

const AUTHJS_PROVIDER = `/**
 * OptiGate as an OpenID Connect provider of Auth.js (next-auth 4): discovery, the code flow with PKCE and state, and
 * the client secret at the token endpoint. The values come from .env, which Next.js reads.
 */
import type { OAuthConfig } from "next-auth/providers/oauth";

interface OptiGateProfile {
  sub: string;
  name?: string;
  email?: string;
}

export const optigate: OAuthConfig<OptiGateProfile> = {
  id: "optigate",
  name: "OptiGate",
  type: "oauth",
  // next-auth 4 takes a plain-http issuer such as the demo's as it is: nothing to drop here in production.
  wellKnown: \`\${process.env.OPTIGATE_ISSUER}/.well-known/openid-configuration\`,
  clientId: process.env.OPTIGATE_CLIENT_ID,
  clientSecret: process.env.OPTIGATE_CLIENT_SECRET,
  authorization: { params: { scope: process.env.OPTIGATE_SCOPE } },
  idToken: true,
  checks: ["pkce", "state"],
  // The ID token proves who signed in; name and email come from userinfo (OpenID Connect Core §5.4). The tokens are
  // openid-client's token set at run time, so it checks that userinfo names the ID token's subject.
  userinfo: {
    request: ({ tokens, client }) =>
      client.userinfo(tokens as Parameters<typeof client.userinfo>[0]) as Promise<OptiGateProfile>,
  },
  profile: (profile) => ({ id: profile.sub, name: profile.name ?? profile.email ?? profile.sub, email: profile.email }),
};
`;

const ROUTE = `// Sign in with signIn("optigate") from next-auth/react; read the session with getServerSession.
import NextAuth from "next-auth";
import { optigate } from "@/lib/auth";

const handler = NextAuth({ providers: [optigate] });

export { handler as GET, handler as POST };
`;

/** This app's own URL for Auth.js: the base of a registered redirect URI that ends with its callback path. */
function appUrl(values: QuickStartValues): { url: string; registered: boolean } | undefined {
  const uri = redirectUriFor(values, AUTHJS_CALLBACK_PATH);
  if (uri === undefined) return undefined;
  return endsWithPath(uri, AUTHJS_CALLBACK_PATH)
    ? { url: uri.slice(0, -AUTHJS_CALLBACK_PATH.length), registered: true }
    : { url: new URL(uri).origin, registered: false };
}

export function authjsSnippet(values: QuickStartValues): Snippet {
  const app = appUrl(values);
  const callbackNote = app?.registered
    ? []
    : [`Auth.js takes the answer at ${app?.url ?? "NEXTAUTH_URL"}${AUTHJS_CALLBACK_PATH}: register that redirect URI.`];
  return {
    id: "authjs",
    title: "Next.js with Auth.js (next-auth 4)",
    files: [
      {
        name: ".env (Auth.js adds these)",
        language: "dotenv",
        text: envLines([
          ["NEXTAUTH_URL", app?.url, "This app's own URL: Auth.js adds /api/auth/callback/optigate.", ...callbackNote],
          ["NEXTAUTH_SECRET", RANDOM_PLACEHOLDER, "Encrypts the session cookie: openssl rand -base64 32"],
        ]),
      },
      { name: "lib/auth.ts", language: "typescript", text: AUTHJS_PROVIDER },
      { name: "app/api/auth/[...nextauth]/route.ts", language: "typescript", text: ROUTE },
    ],
  };
}
