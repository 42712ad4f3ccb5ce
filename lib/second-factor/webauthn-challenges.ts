/**
 * WebAuthn challenges: 32 random bytes handed to the browser in the ceremony's options, with a sealed cookie (its own
 * key from SECRET_KEY) that remembers the challenge, its purpose, its user (where one is named) and its end, five
 * minutes on. A response is tied to its challenge through its clientDataJSON, read here, bounded, before anything
 * else is checked; the challenge's use is recorded then (a second use is refused), so that a response whose
 * signature fails has used it up all the same. Handing out a challenge writes nothing to the database.
 */
import { FORMS } from "@/lib/http/paths";
import { randomBytes } from "node:crypto";
import { seal, unseal } from "@/lib/crypto/secret-box";
import { hashToken } from "@/lib/crypto/tokens";
import { isSecureOrigin, serializeCookie } from "@/lib/http/cookies";
import type { ChallengePurpose } from "@/lib/store/models/second-factor";
import type { DataAccess } from "@/lib/service-context";
import { SecondFactorError } from "@/lib/second-factor/second-factor-error";

export const CHALLENGE_COOKIE = "optigate_webauthn";
const CHALLENGE_LIFETIME_SECONDS = 5 * 60;
/** A clientDataJSON is a few hundred bytes; far more is no browser's. */
const MAX_CLIENT_DATA_LENGTH = 4096;

type ChallengeConfig = { secretKey: string; publicUrl: string };

interface SealedChallenge {
  challenge: string;
  purpose: ChallengePurpose;
  userId?: string;
  until: number;
}

/** A new challenge (base64url) and the cookie that remembers it. */
export function issueChallenge(
  config: ChallengeConfig,
  purpose: ChallengePurpose,
  userId: string | undefined,
  now = new Date(),
): { challenge: string; cookie: string } {
  const challenge = randomBytes(32).toString("base64url");
  const sealed: SealedChallenge = {
    challenge,
    purpose,
    userId,
    until: now.getTime() + CHALLENGE_LIFETIME_SECONDS * 1000,
  };
  const cookie = serializeCookie(
    CHALLENGE_COOKIE,
    seal(JSON.stringify(sealed), config.secretKey, "webauthn-challenge"),
    {
      secure: isSecureOrigin(config.publicUrl),
      path: FORMS.passkey,
      maxAgeSeconds: CHALLENGE_LIFETIME_SECONDS,
    },
  );
  return { challenge, cookie };
}

function challengeOf(clientDataJSON: unknown): string {
  if (typeof clientDataJSON !== "string" || clientDataJSON.length > MAX_CLIENT_DATA_LENGTH)
    throw new SecondFactorError("invalid_response", "clientDataJSON is missing or too long");
  try {
    const { challenge } = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as {
      challenge?: unknown;
    };
    if (typeof challenge === "string" && challenge.length <= 200) return challenge;
  } catch {
    // refused below
  }
  throw new SecondFactorError("invalid_response", "clientDataJSON names no challenge");
}

function openCookie(cookie: string | undefined, secretKey: string): SealedChallenge | undefined {
  try {
    return cookie ? (JSON.parse(unseal(cookie, secretKey, "webauthn-challenge")) as SealedChallenge) : undefined;
  } catch {
    return undefined;
  }
}

/** Uses the response's challenge, which must be the cookie's, current and of the purpose: its user, or a refusal. */
export async function claimChallenge(
  context: DataAccess & { config: ChallengeConfig },
  response: { clientDataJSON: unknown; cookie: string | undefined },
  purpose: ChallengePurpose,
  now = new Date(),
): Promise<{ challenge: string; userId: string | null }> {
  const challenge = challengeOf(response.clientDataJSON);
  const handed = openCookie(response.cookie, context.config.secretKey);
  const unknown = () =>
    new SecondFactorError("challenge_unknown", "the challenge is not this browser's, used, expired or another kind");
  if (!handed || handed.challenge !== challenge || handed.purpose !== purpose || handed.until <= now.getTime())
    throw unknown();
  const first = await context.stores.secondFactors.recordChallengeUse(
    { hash: hashToken(challenge), purpose, userId: handed.userId, expiresAt: new Date(handed.until) },
    now,
  );
  if (!first) throw unknown();
  return { challenge, userId: handed.userId ?? null };
}
