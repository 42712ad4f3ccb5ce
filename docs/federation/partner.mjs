// Plays the partner in docs/federation.md's example (run from the project folder, which has jose installed):
//   node docs/federation/partner.mjs keys                     writes partner-private.jwk.json (keep it secret),
//                                                             partner-issuer.json (for `federation add`) and
//                                                             partner-keys-client.json (a private_key_jwt client)
//   node docs/federation/partner.mjs assertion <email>        prints a JWT the partner's server issues for that user
//   node docs/federation/partner.mjs client-assertion <id>    prints a client assertion of the private_key_jwt client
// OPTIGATE (default http://localhost:3000) is the audience; PARTNER (default https://as.partner.example) the issuer.
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { exportJWK, generateKeyPair, importJWK, SignJWT } from "jose";

const optigate = process.env.OPTIGATE ?? "http://localhost:3000";
const partner = process.env.PARTNER ?? "https://as.partner.example";
const [command, argument] = process.argv.slice(2);

async function sign(claims) {
  const jwk = JSON.parse(readFileSync("partner-private.jwk.json", "utf8"));
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat: now, exp: now + 300, jti: randomUUID(), ...claims })
    .setProtectedHeader({ alg: "ES256", kid: jwk.kid })
    .sign(await importJWK(jwk, "ES256"));
}

if (command === "keys") {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = `partner-${new Date().toISOString().slice(0, 10)}`;
  const publicSet = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" }] };
  writeFileSync("partner-private.jwk.json", JSON.stringify({ ...(await exportJWK(privateKey)), kid }, null, 2));
  writeFileSync(
    "partner-issuer.json",
    JSON.stringify(
      {
        issuer: partner,
        jwks: publicSet,
        clients: ["partner-app"],
        subject: "email",
        companies: ["demo-company-optician"],
      },
      null,
      2,
    ),
  );
  writeFileSync(
    "partner-keys-client.json",
    JSON.stringify(
      {
        client_id: "partner-keys",
        client_name: "Partner backend (keys)",
        grant_types: ["client_credentials"],
        token_endpoint_auth_method: "private_key_jwt",
        jwks: publicSet,
        scope: "platform.catalogs.read",
      },
      null,
      2,
    ),
  );
  console.log("wrote partner-private.jwk.json, partner-issuer.json, partner-keys-client.json");
} else if (command === "assertion" && argument) {
  console.log(
    await sign({ iss: partner, sub: `partner-user-${argument}`, aud: optigate, email: argument, email_verified: true }),
  );
} else if (command === "client-assertion" && argument) {
  console.log(await sign({ iss: argument, sub: argument, aud: `${optigate}/connect/token` }));
} else {
  console.error("usage: node docs/federation/partner.mjs keys | assertion <email> | client-assertion <client_id>");
  process.exit(2);
}
