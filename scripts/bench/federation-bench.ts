/**
 * The jwt-bearer grant under load: a partner client and a trusted issuer with an inline ES256 key, and assertions
 * for the demo optician signed on the load side as autocannon asks for them (each with its own jti).
 */
import { createSign, generateKeyPairSync, randomUUID, type KeyObject } from "node:crypto";
import type { DatabaseTarget } from "@/lib/config/database-url";
import { parseClientMetadata } from "@/lib/admin/client-metadata";
import { registerClient } from "@/lib/admin/client-registry";
import { addTrustedIssuer } from "@/lib/admin/federation-registry";
import { parseTrustedIssuer } from "@/lib/admin/trusted-issuer-metadata";
import { closeDb, createPrismaClient } from "@/lib/db/prisma";
import { prismaStores } from "@/lib/store/stores";

export const PARTNER_ISSUER = "https://as.bench-partner.example";
const PARTNER_CLIENT = "bench-partner-app";
const PARTNER_SECRET = "bench-partner-app-secret";
export const partnerClientAuthorization = `Basic ${Buffer.from(`${PARTNER_CLIENT}:${PARTNER_SECRET}`).toString("base64")}`;

export interface FederationFixtures {
  /** A form body with a fresh assertion, for OptiGate at `audience`. */
  nextBody: (audience: string) => string;
}

/** Registers the partner (idempotent per database) and returns a signer of assertions. */
export async function prepareFederationBench(target: DatabaseTarget): Promise<FederationFixtures> {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const db = createPrismaClient(target);
  const jwk = { ...publicKey.export({ format: "jwk" }), kid: "bench-1", alg: "ES256", use: "sig" };
  await db.client.deleteMany({ where: { id: PARTNER_CLIENT } });
  await registerClient(
    prismaStores(db),
    parseClientMetadata(
      {
        client_id: PARTNER_CLIENT,
        grant_types: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
        scope: "platform.catalogs.read",
      },
      "platform",
    ),
    { value: PARTNER_SECRET },
  );
  await addTrustedIssuer(
    prismaStores(db),
    parseTrustedIssuer({
      issuer: PARTNER_ISSUER,
      jwks: { keys: [jwk] },
      clients: [PARTNER_CLIENT],
      subject: "email",
      companies: ["demo-company-optician"],
    }),
  );
  await closeDb(db);
  return {
    nextBody: (audience) =>
      `grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=${assertion(privateKey, audience)}`,
  };
}

const header = Buffer.from(JSON.stringify({ alg: "ES256", kid: "bench-1", typ: "JWT" })).toString("base64url");

/** Synchronous, as autocannon's setupRequest is. */
function assertion(key: KeyObject, audience: string): string {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: PARTNER_ISSUER,
    sub: "bench-user",
    aud: audience,
    iat: now,
    exp: now + 300,
    jti: randomUUID(),
    email: "optician@demo.test",
    email_verified: true,
  };
  const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  const signature = createSign("SHA256").update(input).sign({ key, dsaEncoding: "ieee-p1363" }).toString("base64url");
  return `${input}.${signature}`;
}
