/** Issues a one-time authorization code (5 minutes) bound to client, redirect URI, PKCE challenge, user and session. */
import { CODE_LIFETIME_SECONDS } from "@/lib/config/policy";
import { generateOpaqueToken, hashToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";
import type { AuthorizationRequest } from "@/lib/oauth/authorize/authorization-request";

export interface CodeSubject {
  userId: string;
  sessionId: string;
  authTime: Date;
  scopes: string[];
}

export async function issueAuthorizationCode(
  db: Db,
  request: AuthorizationRequest,
  subject: CodeSubject,
  now = new Date(),
): Promise<string> {
  const code = generateOpaqueToken();
  const consent = await db.consent.findUnique({
    where: { userId_clientId: { userId: subject.userId, clientId: request.client.id } },
    select: { id: true },
  });
  await db.authorizationCode.create({
    data: {
      codeHash: hashToken(code),
      clientId: request.client.id,
      userId: subject.userId,
      consentId: consent?.id,
      loginSessionId: subject.sessionId,
      redirectUri: request.redirectUri,
      scopes: JSON.stringify(subject.scopes),
      requestedScopes: request.scope,
      nonce: request.nonce,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallenge ? "S256" : null,
      authTime: subject.authTime,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_LIFETIME_SECONDS * 1000),
    },
  });
  if (consent) await db.consent.update({ where: { id: consent.id }, data: { lastUsedAt: now } });
  return code;
}
