/**
 * Issues a one-time authorization code (5 minutes) bound to client, redirect URI, PKCE challenge, user and session,
 * and to a DPoP key when the request named one (dpop_jkt), holding the resources it named (RFC 8707).
 */
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import type { AuthorizationRequest } from "@/lib/oauth/authorize/authorization-request";
import type { ServiceContext } from "@/lib/service-context";
import type { AuthenticationMethod } from "@/lib/store/models/authentication";

export interface CodeSubject {
  userId: string;
  sessionId: string;
  authTime: Date;
  amr: readonly AuthenticationMethod[];
  scopes: string[];
}

export async function issueAuthorizationCode(
  { stores }: Pick<ServiceContext, "stores">,
  request: AuthorizationRequest,
  subject: CodeSubject,
  now = new Date(),
): Promise<string> {
  const code = generateOpaqueToken();
  const consentId = await stores.consents.findId(subject.userId, request.client.id);
  await stores.authorizationCodes.save(
    code,
    {
      clientId: request.client.id,
      userId: subject.userId,
      consentId: consentId ?? null,
      loginSessionId: subject.sessionId,
      redirectUri: request.redirectUri,
      scopes: subject.scopes,
      requestedScopes: request.scope,
      nonce: request.nonce ?? null,
      codeChallenge: request.codeChallenge ?? null,
      dpopJkt: request.dpopJkt ?? null,
      resources: request.resources,
      authTime: subject.authTime,
      amr: [...subject.amr],
    },
    now,
  );
  if (consentId) await stores.consents.markUsed({ id: consentId }, now);
  return code;
}
