/**
 * Bench data: the demo data set, a consent and refresh tokens of the demo optician for demo-web, and fresh codes.
 * demo-web's ID tokens are signed with the algorithm of the run, like the peer's client.
 */
import { randomUUID } from "node:crypto";
import { loadConfig } from "@/lib/config";
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import { databaseEnvironment, type DatabaseTarget } from "@/lib/config/database-url";
import { prepareDatabase } from "@/lib/setup/prepare-database";
import { closeDb, createPrismaClient } from "@/lib/db/prisma";
import { SECRET_KEY } from "./runner";

export const BENCH_REDIRECT_URI = "http://localhost:4000/callback";
const SCOPES = ["openid", "profile", "platform.catalogs.read", "offline_access"];

export interface BenchFixtures {
  /** Granted openid offline_access and the API scope: refreshes return an access token and an ID token. */
  refreshTokens: string[];
  codes: string[];
}

export async function prepareBenchFixtures(
  target: DatabaseTarget,
  tokenSigningAlg: "RS256" | "ES256",
  codeCount: number,
  refreshTokenCount: number,
): Promise<BenchFixtures> {
  const config = loadConfig({
    ...databaseEnvironment(target),
    SECRET_KEY,
    DEMO_DATA: "1",
    TOKEN_SIGNING_ALG: tokenSigningAlg,
    NODE_ENV: "test",
  });
  await prepareDatabase(config);
  const db = createPrismaClient(target); // its own client: disconnecting it must not end the shared pool
  await db.client.update({ where: { id: "demo-web" }, data: { idTokenSignedResponseAlg: tokenSigningAlg } });
  const user = await db.user.findUniqueOrThrow({ where: { email: "optician@demo.test" } });
  const consent = await db.consent.upsert({
    where: { userId_clientId: { userId: user.id, clientId: "demo-web" } },
    create: { userId: user.id, clientId: "demo-web", scopes: JSON.stringify(SCOPES) },
    update: { scopes: JSON.stringify(SCOPES), revokedAt: null },
  });
  const now = new Date();
  const refreshTokens = Array.from({ length: refreshTokenCount }, () => generateOpaqueToken());
  for (let offset = 0; offset < refreshTokens.length; offset += 5000) {
    await db.refreshToken.createMany({
      data: refreshTokens.slice(offset, offset + 5000).map((token) => ({
        tokenHash: hashToken(token),
        familyId: randomUUID(),
        clientId: "demo-web",
        userId: user.id,
        consentId: consent.id,
        scopes: JSON.stringify(["openid", "offline_access", "platform.catalogs.read"]),
        authTime: now,
        expiresAt: new Date(now.getTime() + 365 * 86_400_000),
      })),
    });
  }
  const codes = Array.from({ length: codeCount }, () => generateOpaqueToken());
  for (let offset = 0; offset < codes.length; offset += 5000) {
    await db.authorizationCode.createMany({
      data: codes.slice(offset, offset + 5000).map((code) => ({
        id: randomUUID(),
        codeHash: hashToken(code),
        clientId: "demo-web",
        userId: user.id,
        consentId: consent.id,
        redirectUri: BENCH_REDIRECT_URI,
        scopes: JSON.stringify(["openid", "platform.catalogs.read"]),
        requestedScopes: "openid platform.catalogs.read",
        authTime: now,
        // Longer than the real five minutes, so that codes made before the run do not expire during it.
        expiresAt: new Date(now.getTime() + 3600_000),
      })),
    });
  }
  await closeDb(db);
  return { refreshTokens, codes };
}

/** The demo data's confidential backend client, as the client_credentials scenarios authenticate. */
export const backend = { authorization: `Basic ${Buffer.from("demo-backend:demo-backend-secret").toString("base64")}` };
