/**
 * `npm run demo:idp`: the identity provider of the demo's Optik Nord GmbH (prisma/demo-data.ts), node-oidc-provider on
 * http://localhost:3100 (DEMO_IDP_PORT). Its development login page takes any name and no password: `anna` signs in
 * as anna@optik-nord.test with a verified address. Start the demo beside it with OUTBOUND_ALLOW=127.0.0.0/8,::1/128,
 * so that OptiGate may reach a provider on the loopback. For trying company sign-in only: it holds no real accounts.
 */
import Provider from "oidc-provider";
import { demoCompanySso } from "@/prisma/demo-data";

const port = Number(process.env.DEMO_IDP_PORT ?? 3100);
const optigate = process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
const { domain, clientId, clientSecret } = demoCompanySso;

/** A login name as the person it stands for: the name before the @, in the demo company's domain. */
function personOf(login: string) {
  const name =
    login
      .split("@", 1)[0]
      .toLowerCase()
      .replace(/[^a-z0-9.-]/g, "") || "anna";
  const [given, family = "Nord"] = name.split(".");
  const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  return { email: `${name}@${domain}`, given_name: capital(given), family_name: capital(family) };
}

const provider = new Provider(`http://localhost:${port}`, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [`${optigate}/login/sso/callback`],
      grant_types: ["authorization_code"],
      response_types: ["code"],
    },
  ],
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["given_name", "family_name"] },
  features: { devInteractions: { enabled: true } },
  async findAccount(_context, id) {
    return {
      accountId: id,
      claims: async () => ({ sub: id, ...personOf(id), email_verified: true }),
    };
  },
});

provider.listen(port, () => {
  console.log(`Optik Nord's identity provider is at http://localhost:${port} for ${optigate}`);
  console.log(`Sign in to OptiGate as anna@${domain} (any name before the @; no password here).`);
});
