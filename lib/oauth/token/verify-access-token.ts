/** Verifies an access token OptiGate issued: signature, `typ: at+jwt`, issuer and expiry. */
import { jwtVerify, type JWTPayload } from "jose";
import { getKeySet } from "@/lib/oauth/keys/key-store";
import { invalidToken } from "@/lib/oauth/errors";
import type { ServiceContext } from "@/lib/service-context";

export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  client_id: string;
  scope: string;
}

export async function verifyAccessToken(context: ServiceContext, token: string, now = new Date()): Promise<AccessTokenClaims> {
  const keys = await getKeySet(context.db, context.config.secretKey);
  try {
    const { payload } = await jwtVerify(token, keys.verify, {
      issuer: context.config.publicUrl,
      typ: "at+jwt",
      algorithms: ["RS256", "ES256"],
      currentDate: now,
    });
    if (typeof payload.sub !== "string" || typeof payload.scope !== "string" || typeof payload.client_id !== "string") {
      throw new Error("claims missing");
    }
    return payload as AccessTokenClaims;
  } catch {
    throw invalidToken("the access token is invalid or has expired");
  }
}
