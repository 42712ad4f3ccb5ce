/**
 * What the encrypted session cookie of Auth.js holds for this app, and how it is renewed: the refresh token grant
 * runs when the access token is within the margin of its expiry.
 */
import type { JWT } from "next-auth/jwt";
import { refreshTokens, type TokenSet } from "./optigate";
import { settings } from "./settings";

export interface OptiGateTokens {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** Seconds since the epoch. */
  expiresAt: number;
  refreshCount: number;
  error?: "RefreshFailed";
}

export type SessionToken = JWT & Partial<OptiGateTokens>;

export function tokensFrom(set: TokenSet, previous?: OptiGateTokens): OptiGateTokens {
  return {
    accessToken: set.access_token,
    // Under a rotating policy OptiGate hands out a successor; otherwise the same refresh token stays valid.
    refreshToken: set.refresh_token ?? previous?.refreshToken,
    idToken: set.id_token ?? previous?.idToken,
    expiresAt: Math.floor(Date.now() / 1000) + set.expires_in,
    refreshCount: previous ? previous.refreshCount + 1 : 0,
  };
}

export function refreshIsDue(token: SessionToken): boolean {
  return (
    token.accessToken !== undefined &&
    token.error === undefined &&
    Date.now() / 1000 >= (token.expiresAt ?? 0) - settings.refreshMarginSeconds
  );
}

export async function renewed(token: SessionToken): Promise<SessionToken> {
  if (!token.refreshToken) return { ...token, error: "RefreshFailed" };
  try {
    return { ...token, ...tokensFrom(await refreshTokens(token.refreshToken), token as OptiGateTokens) };
  } catch (error) {
    console.error(error);
    return { ...token, error: "RefreshFailed" };
  }
}
