/**
 * A person lets a device sign in as them (RFC 8628), at /device: signed in, with the second factor their company
 * requires (requireUser), they enter the code the device shows (its guesses limited, lib/oauth/device/
 * user-code-guesses.ts), see which application asks, from which network and when, with the scopes as the consent page
 * shows them, and allow or deny once. Allowing stores their consent, as the consent page does, so that the portal
 * lists the application and can take its access back; the device's grant does not follow the browser's session.
 */
import "server-only";
import { wideNetwork } from "@/lib/http/client-address";
import { localizedText } from "@/lib/i18n/localized-text";
import { countDeviceStep } from "@/lib/observability/metrics";
import { saveConsent } from "@/lib/oauth/authorize/save-consent";
import { deviceRequestTicket, ticketRequestId } from "@/lib/oauth/device/device-request-ticket";
import { recordWrongUserCode, releaseUserCodeGuess, reserveUserCodeGuess } from "@/lib/oauth/device/user-code-guesses";
import { normalizeUserCode, userCodeHash } from "@/lib/oauth/device/user-code";
import { requireUser, type Actor, type SignedInUser } from "@/lib/rights/actor";
import { chosenScopes, describeScopes, type ScopeView } from "@/lib/rights/consent";
import type { DeviceAuthorization } from "@/lib/store/models/device-authorization";

export interface DeviceRequestView {
  clientName: string;
  clientDescription?: string;
  requestedAt: Date;
  /** The wider network the device asked from; null when its address was unknown. */
  network: string | null;
  /** The device asked from the network of the browser looking at it. */
  sameNetwork: boolean;
  scopes: ScopeView[];
  user: { name: string; email: string };
}

export type CodeEntry =
  | { ticket: string }
  | { refused: "malformed" | "wrong_code" | "expired" }
  | { refused: "throttled"; retryAfterSeconds: number };

const personOf = (user: SignedInUser) => ({
  name: `${user.session.user.givenName} ${user.session.user.familyName}`,
  email: user.session.user.email,
});

/** Who is about to enter a code: a signed-in user (visitors are sent to sign in, sessions owing a factor to give it). */
export function deviceCodeEntry(actor: Actor): { name: string; email: string } {
  return personOf(requireUser(actor));
}

/**
 * Looks the typed code up, within the guess limits; a right one gives a ticket for this session to the request's
 * confirmation. An existing code that is no longer pending (decided, expired) does not count as a wrong guess.
 */
export async function enterUserCode(
  actor: Actor,
  typed: string,
  address: string | undefined,
  now = new Date(),
): Promise<CodeEntry> {
  const user = requireUser(actor);
  const code = normalizeUserCode(typed);
  if (!code) return { refused: "malformed" };
  const { context, session } = user;
  const { throttles, deviceAuthorizations } = context.stores;
  const reservation = await reserveUserCodeGuess(
    throttles,
    { sessionId: session.id, userId: session.user.id },
    address,
    now,
  );
  if (!reservation.ok) return { refused: "throttled", retryAfterSeconds: reservation.retryAfterSeconds };
  const request = await deviceAuthorizations.findByUserCode(userCodeHash(code, context.config.secretKey));
  if (!request) {
    await recordWrongUserCode(throttles, reservation, now);
    return { refused: "wrong_code" };
  }
  await releaseUserCodeGuess(throttles, reservation);
  if (request.status !== "pending" || request.expiresAt <= now) return { refused: "expired" };
  return { ticket: deviceRequestTicket(request.id, session.id, context.config.secretKey) };
}

/** The pending request a ticket of this user's session names, or undefined. */
async function ticketedRequest(
  user: SignedInUser,
  ticket: string,
  now: Date,
): Promise<DeviceAuthorization | undefined> {
  const id = ticketRequestId(ticket, user.session.id, user.context.config.secretKey);
  return id === undefined ? undefined : user.context.stores.deviceAuthorizations.findPending(id, now);
}

/** What /device shows of the request a ticket names before the person decides; undefined once it is decided or gone. */
export async function deviceRequestView(
  actor: Actor,
  ticket: string,
  locale: string,
  browserAddress: string | undefined,
): Promise<DeviceRequestView | undefined> {
  const user = requireUser(actor);
  const request = await ticketedRequest(user, ticket, new Date());
  const client = request && (await user.context.stores.clients.find(request.clientId));
  if (!request || !client) return undefined;
  return {
    clientName: localizedText(client.names, locale, client.id),
    clientDescription: localizedText(client.descriptions, locale) || undefined,
    requestedAt: request.createdAt,
    network: request.network,
    sameNetwork: browserAddress !== undefined && request.network === wideNetwork(browserAddress),
    scopes: await describeScopes(user.context, request.scopes, locale),
    user: personOf(user),
  };
}

/**
 * Decides the request a ticket names: the ticked scopes (`openid` whenever asked) are allowed, none or "deny" denies.
 * Undefined when it was decided or expired meanwhile.
 */
export async function decideDeviceRequest(
  actor: Actor,
  ticket: string,
  ticked: string[] | "deny",
  address: string | undefined,
  now = new Date(),
): Promise<"approved" | "denied" | undefined> {
  const user = requireUser(actor);
  const request = await ticketedRequest(user, ticket, now);
  if (!request) return undefined;
  const { consents, deviceAuthorizations } = user.context.stores;
  const userId = user.session.user.id;
  const granted = ticked === "deny" ? [] : chosenScopes(request.scopes, ticked);
  if (granted.length === 0) {
    if (!(await deviceAuthorizations.decide(request.id, { deny: { userId } }, now, address))) return undefined;
    countDeviceStep("denied");
    return "denied";
  }
  await saveConsent(consents, userId, request.clientId, request.scopes, granted, now);
  const consentId = (await consents.findId(userId, request.clientId)) ?? null;
  const approve = { userId, scopes: granted, authTime: user.session.authTime, amr: user.session.amr, consentId };
  if (!(await deviceAuthorizations.decide(request.id, { approve }, now, address))) return undefined;
  if (consentId) await consents.markUsed({ id: consentId }, now);
  countDeviceStep("approved");
  return "approved";
}
