/**
 * What a device authorization request may leave behind: requests are counted per client and per client network
 * (anyone may ask in a public client's name), and none is stored while MAX_PENDING_DEVICE_AUTHORIZATIONS of the
 * client's wait for a decision. Refusals are 429 Too Many Requests, as pushed authorization requests' are.
 */
import { DEVICE_AUTHORIZATION_LIMITS, MAX_PENDING_DEVICE_AUTHORIZATIONS } from "@/lib/config/policy";
import { OAuthError } from "@/lib/errors/oauth-error";
import { throttledNetwork } from "@/lib/http/client-address";
import type { ServiceContext } from "@/lib/service-context";
import { countRequest } from "@/lib/session/request-rate";

const tooMany = (description: string) => new OAuthError("invalid_request", description, 429);

export async function limitDeviceAuthorizations(
  context: ServiceContext,
  clientId: string,
  address: string | undefined,
  now = new Date(),
): Promise<void> {
  const { throttles, deviceAuthorizations } = context.stores;
  const network = throttledNetwork(address ?? "0.0.0.0");
  const { client, address: perAddress } = DEVICE_AUTHORIZATION_LIMITS;
  // The network first: a throttled network must not use up the client's allowance.
  const networkWait = await countRequest(throttles, `device-address:${network}`, perAddress, now);
  if (networkWait > 0)
    throw tooMany(`too many device sign-in requests from this network: try again in ${networkWait} s`);
  const clientWait = await countRequest(throttles, `device-client:${clientId}`, client, now);
  if (clientWait > 0) throw tooMany(`too many device sign-in requests for this client: try again in ${clientWait} s`);
  if ((await deviceAuthorizations.countPending(clientId, now)) >= MAX_PENDING_DEVICE_AUTHORIZATIONS)
    throw tooMany("too many device sign-in requests wait for a decision: try again in a few minutes");
}
