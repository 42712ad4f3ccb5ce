/**
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
  wellKnown: `${process.env.OPTIGATE_ISSUER}/.well-known/openid-configuration`,
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
