/**
 * Server-provided DPoP nonces (RFC 9449 §8), with REQUIRE_DPOP_NONCE=1. A nonce is an HMAC of the current period
 * (DPOP_NONCE_PERIOD_SECONDS) under SECRET_KEY, so every instance hands out and accepts the same ones without
 * storing anything; a nonce stays valid through the period after the one it was issued in.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { DPOP_NONCE_PERIOD_SECONDS } from "@/lib/config/policy";

const periodOf = (now: Date) => Math.floor(now.getTime() / 1000 / DPOP_NONCE_PERIOD_SECONDS);

const nonceOf = (secretKey: string, period: number) =>
  createHmac("sha256", secretKey).update(`dpop-nonce\n${period}`).digest("base64url");

export const currentDpopNonce = (secretKey: string, now = new Date()) => nonceOf(secretKey, periodOf(now));

export function isCurrentDpopNonce(secretKey: string, nonce: string, now = new Date()): boolean {
  const given = Buffer.from(nonce);
  const period = periodOf(now);
  return [period, period - 1].some((candidate) => {
    const expected = Buffer.from(nonceOf(secretKey, candidate));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}
