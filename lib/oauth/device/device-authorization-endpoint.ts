/**
 * POST /connect/deviceauthorization (RFC 8628 §3.1, §3.2): a device asks to sign a person in. The client authenticates
 * as at the token endpoint (a public client names itself with client_id), must be registered with the device_code
 * grant, and its scope is checked as the code grant's. Within the limits (device-authorization-limits.ts) the request
 * is stored and answered with a 256-bit device code, a user code (user-code.ts) and where to enter it.
 */
import { DEVICE_CODE_LIFETIME_SECONDS, DEVICE_POLL_INTERVAL_SECONDS } from "@/lib/config/policy";
import { generateOpaqueToken } from "@/lib/crypto/tokens";
import { unauthorizedClient } from "@/lib/errors/oauth-error";
import { clientAddress, wideNetwork } from "@/lib/http/client-address";
import { noStoreBody } from "@/lib/http/no-store-json";
import { PAGES } from "@/lib/http/paths";
import type { ProtocolRequest, ProtocolResponse } from "@/lib/http/protocol-message";
import { countDeviceStep } from "@/lib/observability/metrics";
import { parseScopes } from "@/lib/oauth/authorize/authorization-request";
import { withAuthenticatedClient } from "@/lib/oauth/clients/with-authenticated-client";
import { refuseSandboxBeyondCodeFlow } from "@/lib/oauth/authorize/vendor-sign-in";
import { limitDeviceAuthorizations } from "@/lib/oauth/device/device-authorization-limits";
import { formatUserCode, generateUserCode, userCodeHash } from "@/lib/oauth/device/user-code";
import { DEVICE_CODE_GRANT } from "@/lib/oauth/grant-types";
import { formValues, optional, type Parameters } from "@/lib/oauth/request-parameters";
import { grantedResources } from "@/lib/oauth/resource-indicators";
import type { ServiceContext } from "@/lib/service-context";
import type { ClientWithSecrets } from "@/lib/store/models/client";
import type { NewDeviceAuthorization } from "@/lib/store/models/device-authorization";

/** A user code already held by another request is drawn again; three draws in a row would be one in 10^20. */
const USER_CODE_DRAWS = 3;

/** The scopes asked for; throws unless the client may use the device grant and ask for each. */
function validateDeviceAuthorizationRequest(params: Parameters, client: ClientWithSecrets): string[] {
  refuseSandboxBeyondCodeFlow(client, DEVICE_CODE_GRANT);
  if (!client.grantTypes.includes(DEVICE_CODE_GRANT))
    throw unauthorizedClient(`this client is not registered for the grant "${DEVICE_CODE_GRANT}"`);
  return parseScopes(client, optional(params, "scope"));
}

/** Stores the request under new codes: the device code and the user code, as the person is to type it. */
async function issueDeviceCodes(
  context: ServiceContext,
  request: Omit<NewDeviceAuthorization, "userCodeHash">,
  now: Date,
): Promise<{ deviceCode: string; userCode: string }> {
  for (let draw = 0; draw < USER_CODE_DRAWS; draw++) {
    const [deviceCode, userCode] = [generateOpaqueToken(), generateUserCode()];
    const hash = userCodeHash(userCode, context.config.secretKey);
    if (await context.stores.deviceAuthorizations.create(deviceCode, { ...request, userCodeHash: hash }, now))
      return { deviceCode, userCode: formatUserCode(userCode) };
  }
  throw new Error(`no free user code in ${USER_CODE_DRAWS} draws`);
}

/** RFC 8628 §3.2: the answer, with verification_uri_complete for a device that can show a QR code. */
function deviceAuthorizationResponse(publicUrl: string, codes: { deviceCode: string; userCode: string }) {
  const verificationUri = `${publicUrl}${PAGES.device}`;
  return {
    device_code: codes.deviceCode,
    user_code: codes.userCode,
    verification_uri: verificationUri,
    verification_uri_complete: `${verificationUri}?${new URLSearchParams({ user_code: codes.userCode })}`,
    expires_in: DEVICE_CODE_LIFETIME_SECONDS,
    interval: DEVICE_POLL_INTERVAL_SECONDS,
  };
}

export function handleDeviceAuthorizationRequest(
  request: ProtocolRequest,
  context: ServiceContext,
): Promise<ProtocolResponse> {
  return withAuthenticatedClient(request, context, async (params, client) => {
    const scopes = validateDeviceAuthorizationRequest(params, client);
    // RFC 8707: the resource servers the device's tokens may be for, as at authorize (one of them per token).
    const resources = grantedResources(context.config, client, formValues(request, "resource"));
    const address = clientAddress(request, context.config.trustedProxies);
    const now = new Date();
    await limitDeviceAuthorizations(context, client.id, address, now);
    const network = address === undefined ? null : wideNetwork(address);
    const codes = await issueDeviceCodes(context, { clientId: client.id, scopes, resources, network }, now);
    countDeviceStep("requested");
    return noStoreBody(deviceAuthorizationResponse(context.config.publicUrl, codes));
  });
}
