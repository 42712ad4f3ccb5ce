/**
 * This app's Auth.js options: OptiGate as its one provider (lib/auth.ts, the partner portal's quick start as it is),
 * the tokens kept in the encrypted session cookie, and the access token renewed with the refresh token when due.
 */
import type { NextAuthOptions } from "next-auth";
import { optigate } from "./auth";
import { refreshIsDue, renewed, tokensFrom, type SessionToken } from "./session-token";

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
