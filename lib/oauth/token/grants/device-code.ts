/**
 * grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628 §3.4, §3.5): the device polls with its device
 * code. Until the person decides, a poll is authorization_pending, or slow_down when it comes before the interval is
 * over (which then grows by five seconds for good); a denial is access_denied, a request past its lifetime
 * expired_token, an unknown code or another client's invalid_grant. An approval is redeemed once (a conditional
 * update) and answered as the code grant answers: an access token, an ID token of the approving session's sign-in,
 * and a refresh token for an offline client granted offline_access (a public client's bound to its DPoP key).
 */
import { invalidGrant, OAuthError } from "@/lib/errors/oauth-error";
import { noteUser } from "@/lib/observability/request-context";
import { tokenAudience } from "@/lib/oauth/resource-indicators";
import { offlineGrant, refreshBinding } from "@/lib/oauth/token/grants/authorization-code";
import { issueUserTokens, type TokenResponseBody } from "@/lib/oauth/token/issue-tokens";
import type { TokenRequest } from "@/lib/oauth/token/token-request";
import type { DEVICE_CODE_GRANT } from "@/lib/oauth/grant-types";
import type { ServiceContext } from "@/lib/service-context";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import type { DeviceAuthorization } from "@/lib/store/models/device-authorization";

/** A pending request's poll: on time it waits for the person, too early the device must slow down. */
async function pendingAnswer(context: ServiceContext, request: DeviceAuthorization, now: Date): Promise<OAuthError> {
  if ((await context.stores.deviceAuthorizations.poll(request, now)) === "on_time")
    return new OAuthError("authorization_pending", "the person has not allowed or denied the request yet");
  return new OAuthError("slow_down", "polling too often: wait 5 seconds longer between polls from now on");
}

/**
 * The approved request of the device code, taken for this redemption, and the audience of its access token (RFC 8707:
 * one of the resources the device asked for; checked before the code is spent, so that the device may ask again);
 * throws the answer to any other poll.
 */
async function approvedRequest(
  context: ServiceContext,
  client: ClientWithSecrets,
  { deviceCode, resources = [] }: { deviceCode: string; resources?: readonly string[] },
  now: Date,
): Promise<{ request: DeviceAuthorization; audience: string | undefined }> {
  const requests = context.stores.deviceAuthorizations;
  const request = await requests.findByDeviceCode(deviceCode);
  if (!request || request.clientId !== client.id) throw invalidGrant("the device code is not valid");
  if (request.redeemedAt) throw invalidGrant("the device code was already used");
  if (request.expiresAt <= now) throw new OAuthError("expired_token", "the device code has expired: start again");
  if (request.status === "denied") throw new OAuthError("access_denied", "the person denied the request");
  if (request.status === "pending") throw await pendingAnswer(context, request, now);
  const audience = tokenAudience(context.config, client, resources, request.resources);
  if (!(await requests.redeem(request.id, now))) throw invalidGrant("the device code was already used");
  return { request, audience };
}

export async function redeemDeviceCode(
  context: ServiceContext,
  client: ClientWithSecrets,
  { deviceCode, dpopJkt, resources }: Extract<TokenRequest, { grantType: typeof DEVICE_CODE_GRANT }>,
  now = new Date(),
): Promise<TokenResponseBody> {
  const { request, audience } = await approvedRequest(context, client, { deviceCode, resources }, now);
  const { userId, scopes, authTime, amr, consentId } = request.grant!;
  noteUser(userId);
  const user = await context.stores.users.findActive(userId);
  if (!user) throw invalidGrant("the user who allowed this device is no longer active");
  return issueUserTokens(
    context,
    {
      client,
      user,
      scopes,
      authTime,
      amr,
      requestedScope: request.scopes.join(" "),
      newRefreshToken: offlineGrant(client, scopes)
        ? { scopes, consentId, dpopJkt: refreshBinding(client, dpopJkt), resources: request.resources }
        : undefined,
      dpopJkt,
      audience,
    },
    now,
  );
}
