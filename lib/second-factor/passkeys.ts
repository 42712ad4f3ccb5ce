/**
 * Passkeys (WebAuthn Level 3) through @simplewebauthn/server: discoverable credentials with user verification
 * required, the relying party being the host of PUBLIC_URL. Registering one belongs to a signed-in user; signing in
 * with one needs no user name (the credential names its user). Each ceremony's challenge is single use for 5 minutes
 * (webauthn-challenges.ts); a response is bounded and its shape checked before the library reads it.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { DataAccess } from "@/lib/service-context";
import type { User } from "@/lib/store/models/user";
import type { AuthenticationMethod } from "@/lib/store/models/authentication";
import { SecondFactorError } from "@/lib/second-factor/second-factor-error";
import { claimChallenge, issueChallenge } from "@/lib/second-factor/webauthn-challenges";

type PasskeyContext = DataAccess & { config: { publicUrl: string; secretKey: string } };

/** What the browser sent back: its response (JSON text) and the challenge cookie it carries. */
export interface CeremonyResponse {
  text: string;
  cookie: string | undefined;
}

const challengeBytes = (challenge: string) => new Uint8Array(Buffer.from(challenge, "base64url"));

/** Far more than any authenticator's response (attestation "none"); more is refused unread. */
const MAX_RESPONSE_LENGTH = 16_384;
const MAX_NAME_LENGTH = 100;

/** RFC 8176: a key held in one device's hardware (`hwk`) or synced in software (`swk`), with user verification. */
const keyMethods = (deviceType: string): AuthenticationMethod[] => [
  deviceType === "singleDevice" ? "hwk" : "swk",
  "user",
];

const relyingParty = (publicUrl: string) => {
  const url = new URL(publicUrl);
  return { rpID: url.hostname, origin: url.origin };
};

/** The browser's response, parsed and of the shape the library expects; anything else is refused. */
function parseResponse<T extends RegistrationResponseJSON | AuthenticationResponseJSON>(text: string): T {
  if (text.length > MAX_RESPONSE_LENGTH) throw new SecondFactorError("invalid_response", "the response is too long");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SecondFactorError("invalid_response", "the response is not JSON");
  }
  const response = parsed as { id?: unknown; rawId?: unknown; type?: unknown; response?: unknown };
  if (
    typeof response !== "object" ||
    response === null ||
    typeof response.id !== "string" ||
    response.id.length > 1400 ||
    response.rawId !== response.id ||
    response.type !== "public-key" ||
    typeof response.response !== "object" ||
    response.response === null
  )
    throw new SecondFactorError("invalid_response", "the response is not a WebAuthn credential");
  return parsed as T;
}

/** A library refusal (wrong origin, rp id, signature, counter...) as ours, with its reason for the log. */
async function verified<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    throw new SecondFactorError("not_verified", (error as Error).message);
  }
}

export async function passkeyRegistrationOptions(context: PasskeyContext, user: User, now = new Date()) {
  const { rpID } = relyingParty(context.config.publicUrl);
  const { challenge, cookie } = issueChallenge(context.config, "register", user.id, now);
  const existing = await context.stores.secondFactors.listPasskeys(user.id);
  const options = await generateRegistrationOptions({
    rpName: "OptiGate",
    rpID,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    userDisplayName: `${user.givenName} ${user.familyName}`,
    challenge: challengeBytes(challenge),
    attestationType: "none",
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  return { options, cookie };
}

/** Verifies a new passkey of the user and stores it under the name given; the methods its ceremony proved. */
export async function registerPasskey(
  context: PasskeyContext,
  user: User,
  sent: CeremonyResponse,
  name: string,
  now = new Date(),
): Promise<AuthenticationMethod[]> {
  const response = parseResponse<RegistrationResponseJSON>(sent.text);
  const claimed = await claimChallenge(
    context,
    { clientDataJSON: response.response.clientDataJSON, cookie: sent.cookie },
    "register",
    now,
  );
  if (claimed.userId !== user.id) throw new SecondFactorError("challenge_unknown", "the challenge is another user's");
  const { rpID, origin } = relyingParty(context.config.publicUrl);
  const result = await verified(() =>
    verifyRegistrationResponse({
      response,
      expectedChallenge: claimed.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    }),
  );
  if (!result.verified || !result.registrationInfo) throw new SecondFactorError("not_verified", "not verified");
  const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
  const stored = await context.stores.secondFactors.savePasskey(
    {
      userId: user.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: (credential.transports ?? []).slice(0, 10),
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      name: name.trim().slice(0, MAX_NAME_LENGTH) || "Passkey",
    },
    now,
  );
  if (!stored) throw new SecondFactorError("already_enrolled", "this passkey is registered already");
  return keyMethods(credentialDeviceType);
}

/** Options to sign in with a passkey: any of the user's (second step), or any at all (no user name needed). */
export async function passkeySignInOptions(context: PasskeyContext, userId: string | undefined, now = new Date()) {
  const { challenge, cookie } = issueChallenge(context.config, "sign_in", userId, now);
  const allowCredentials = userId
    ? (await context.stores.secondFactors.listPasskeys(userId)).map((passkey) => ({
        id: passkey.credentialId,
        transports: passkey.transports,
      }))
    : [];
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(context.config.publicUrl).rpID,
    challenge: challengeBytes(challenge),
    allowCredentials,
    userVerification: "required",
  });
  return { options, cookie };
}

/**
 * Verifies a passkey's assertion: its user, and the methods it proves (RFC 8176: a key held in hardware, `hwk`, or
 * synced in software, `swk`, with user verification, `user`). The counter must not go back, and only one of two
 * assertions racing with the same counter counts.
 */
export async function verifyPasskey(
  context: PasskeyContext,
  sent: CeremonyResponse,
  now = new Date(),
): Promise<{ userId: string; methods: AuthenticationMethod[] }> {
  const response = parseResponse<AuthenticationResponseJSON>(sent.text);
  const claimed = await claimChallenge(
    context,
    { clientDataJSON: response.response.clientDataJSON, cookie: sent.cookie },
    "sign_in",
    now,
  );
  const passkey = await context.stores.secondFactors.findPasskey(response.id);
  if (!passkey || (claimed.userId !== null && passkey.userId !== claimed.userId))
    throw new SecondFactorError("unknown_credential", "this passkey is not registered (or was removed)");
  const { rpID, origin } = relyingParty(context.config.publicUrl);
  const result = await verified(() =>
    verifyAuthenticationResponse({
      response,
      expectedChallenge: claimed.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: Buffer.from(passkey.publicKey, "base64url"),
        counter: passkey.counter,
        transports: passkey.transports,
      },
    }),
  );
  if (!result.verified) throw new SecondFactorError("not_verified", "not verified");
  const { newCounter, credentialDeviceType, credentialBackedUp } = result.authenticationInfo;
  const counted = await context.stores.secondFactors.recordPasskeyUse(
    { id: passkey.id, seen: passkey.counter },
    { counter: newCounter, backedUp: credentialBackedUp },
    now,
  );
  if (!counted) throw new SecondFactorError("not_verified", "another sign-in with this passkey's counter came first");
  return { userId: passkey.userId, methods: keyMethods(credentialDeviceType) };
}
