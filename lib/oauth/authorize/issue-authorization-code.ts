/**
 * Issues a one-time authorization code (5 minutes) bound to client, redirect URI, PKCE challenge, user and session,
 * and to a DPoP key when the request named one (dpop_jkt).
 */
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import type { Db } from "@/lib/db/prisma";
import type { AuthorizationRequest } from "@/lib/oauth/authorize/authorization-request";
import { storeAuthorizationCode } from "@/lib/store/authorization-code-store";
import { findConsentId, markConsentUsed } from "@/lib/store/consent-store";

export interface CodeSubject {
  userId: string;
  sessionId: string;
  authTime: Date;
  amr: readonly string[];
  scopes: string[];
}

export async function issueAuthorizationCode(
  db: Db,
  request: AuthorizationRequest,
  subject: CodeSubject,
  now = new Date(),
): Promise<string> {
  const code = generateOpaqueToken();
  const consentId = await findConsentId(db, subject.userId, request.client.id);
  await storeAuthorizationCode(
    db,
    code,
    {
      clientId: request.client.id,
      userId: subject.userId,
      consentId,
      loginSessionId: subject.sessionId,
      redirectUri: request.redirectUri,
      scopes: JSON.stringify(subject.scopes),
      requestedScopes: request.scope,
      nonce: request.nonce,
      codeChallenge: request.codeChallenge,
      dpopJkt: request.dpopJkt,
      authTime: subject.authTime,
      amr: JSON.stringify(subject.amr),
    },
    now,
  );
  if (consentId) await markConsentUsed(db, { id: consentId }, now);
  return code;
}
