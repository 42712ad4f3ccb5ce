/**
 * Auth.js (next-auth) configured for OptiGate as a generic OpenID Connect provider: discovery, the code flow with
 * PKCE and state, the client secret at the token endpoint, and the tokens kept in the encrypted session cookie.
 */
import type { NextAuthOptions } from "next-auth";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { refreshIsDue, renewed, tokensFrom, type SessionToken } from "./session-token";
import { settings } from "./settings";

interface OptiGateProfile {
  sub: string;
  name?: string;
  email?: string;
}

const optigate: OAuthConfig<OptiGateProfile> = {
  id: "optigate",
  name: "OptiGate",
  type: "oauth",
  wellKnown: `${settings.issuer}/.well-known/openid-configuration`,
  clientId: settings.clientId,
  clientSecret: settings.clientSecret,
  authorization: { params: { scope: settings.scope } },
  idToken: true,
  // The ID token proves who signed in; name and email come from userinfo (OpenID Connect Core §5.4). The tokens are
  // openid-client's token set at run time, so it checks that userinfo names the ID token's subject.
  userinfo: {
    request: ({ tokens, client }) =>
      client.userinfo(tokens as Parameters<typeof client.userinfo>[0]) as Promise<OptiGateProfile>,
  },
  checks: ["pkce", "state"],
  profile: (profile) => ({ id: profile.sub, name: profile.name ?? profile.email ?? profile.sub, email: profile.email }),
};

export const authOptions: NextAuthOptions = {
  providers: [optigate],
  session: { strategy: "jwt" },
  callbacks: {
    async jwt({ token, account }) {
      if (account?.access_token) {
        const expiresIn = account.expires_at ? account.expires_at - Math.floor(Date.now() / 1000) : 3600;
        const tokens = tokensFrom({
          access_token: account.access_token,
          expires_in: expiresIn,
          refresh_token: account.refresh_token,
          id_token: account.id_token,
        });
        return { ...token, ...tokens };
      }
      const session = token as SessionToken;
      return refreshIsDue(session) ? renewed(session) : session;
    },
  },
};
