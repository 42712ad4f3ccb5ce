/**
 * The limits on user-code guesses at /device (lib/oauth/device/user-code-guesses.ts), on the memory throttles with an
 * injected clock: five wrong codes per session, ten per address and per account, thirty per wider network, a thousand
 * for everyone, each key locked a while once its limit is reached, right codes not counted.
 */
import { describe, expect, it } from "vitest";
import { USER_CODE_GUESS_LIMITS, USER_CODE_GUESS_WINDOW_SECONDS, USER_CODE_LOCKOUT_SECONDS } from "@/lib/config/policy";
import { recordWrongUserCode, releaseUserCodeGuess, reserveUserCodeGuess } from "@/lib/oauth/device/user-code-guesses";
import { memoryStores } from "@/lib/store/memory/memory-stores";

const NOW = new Date("2026-11-27T10:00:00.000Z");
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const S1 = { sessionId: "s1", userId: "u1" };

/** Guesses a wrong code at `when`; the seconds to wait when refused, else 0. */
async function wrongGuess(
  throttles: ReturnType<typeof memoryStores>["throttles"],
  session: string,
  address: string,
  when: Date,
  userId = `user-of-${session}`,
): Promise<number> {
  const reservation = await reserveUserCodeGuess(throttles, { sessionId: session, userId }, address, when);
  if (!reservation.ok) return reservation.retryAfterSeconds;
  await recordWrongUserCode(throttles, reservation, when);
  return 0;
}

describe("user-code guesses", () => {
  it("lock a session after five wrong codes until its lock is over", async () => {
    const { throttles } = memoryStores();
    for (let guess = 0; guess < USER_CODE_GUESS_LIMITS.session; guess++)
      expect(await wrongGuess(throttles, "s1", "192.0.2.1", at(guess))).toBe(0);
    expect(await wrongGuess(throttles, "s1", "192.0.2.1", at(10))).toBe(USER_CODE_LOCKOUT_SECONDS - 6);
    // Another session on the same network goes on.
    expect(await wrongGuess(throttles, "s2", "192.0.2.1", at(11))).toBe(0);
    expect(await wrongGuess(throttles, "s1", "192.0.2.1", at(USER_CODE_LOCKOUT_SECONDS + 5))).toBe(0);
  });

  it("count a network's guesses across its sessions, an IPv6 /64 as one network", async () => {
    const { throttles } = memoryStores();
    for (let guess = 0; guess < USER_CODE_GUESS_LIMITS.address; guess++)
      expect(await wrongGuess(throttles, `s${guess}`, `2001:db8:1:2::${guess}`, at(guess))).toBe(0);
    expect(await wrongGuess(throttles, "fresh", "2001:db8:1:2::ffff", at(20))).toBeGreaterThan(0);
    expect(await wrongGuess(throttles, "fresh", "2001:db8:1:3::1", at(21))).toBe(0);
  });

  it("count an account's guesses across its sessions, and a /48's across its /64s", async () => {
    const { throttles } = memoryStores();
    for (let guess = 0; guess < USER_CODE_GUESS_LIMITS.account; guess++)
      expect(await wrongGuess(throttles, `s${guess}`, `198.51.${guess}.1`, at(guess), "one-person")).toBe(0);
    expect(await wrongGuess(throttles, "another", "203.0.113.1", at(20), "one-person")).toBeGreaterThan(0);
    expect(await wrongGuess(throttles, "another", "203.0.113.1", at(21), "someone-else")).toBe(0);

    const site = memoryStores().throttles;
    for (let guess = 0; guess < USER_CODE_GUESS_LIMITS.network; guess++)
      expect(await wrongGuess(site, `n${guess}`, `2001:db8:47:${guess.toString(16)}::1`, at(guess))).toBe(0);
    expect(await wrongGuess(site, "fresh", "2001:db8:47:ff::1", at(40))).toBeGreaterThan(0);
    expect(await wrongGuess(site, "fresh", "2001:db8:48::1", at(41))).toBe(0);
  });

  it("do not count a code that exists", async () => {
    const { throttles } = memoryStores();
    for (let guess = 0; guess < 3 * USER_CODE_GUESS_LIMITS.session; guess++) {
      const reservation = await reserveUserCodeGuess(throttles, S1, "192.0.2.1", at(guess));
      expect(reservation.ok).toBe(true);
      if (reservation.ok) await releaseUserCodeGuess(throttles, reservation);
    }
  });

  it("reopen once the window is over, without a lock", async () => {
    const { throttles } = memoryStores();
    for (let guess = 0; guess < USER_CODE_GUESS_LIMITS.session - 1; guess++)
      await wrongGuess(throttles, "s1", "192.0.2.1", at(guess));
    expect(await wrongGuess(throttles, "s1", "192.0.2.1", at(USER_CODE_GUESS_WINDOW_SECONDS + 1))).toBe(0);
    expect(await wrongGuess(throttles, "s1", "192.0.2.1", at(USER_CODE_GUESS_WINDOW_SECONDS + 2))).toBe(0);
  });

  it("refuse concurrent guesses beyond the limit before any is looked up, and give their reservations back", async () => {
    const { throttles } = memoryStores();
    const reservations = await Promise.all(
      Array.from({ length: 9 }, () => reserveUserCodeGuess(throttles, S1, "192.0.2.1", NOW)),
    );
    expect(reservations.filter((reservation) => reservation.ok)).toHaveLength(USER_CODE_GUESS_LIMITS.session);
    expect((await throttles.reserve("device-guess-everyone", USER_CODE_GUESS_WINDOW_SECONDS, NOW)).attempts).toBe(
      USER_CODE_GUESS_LIMITS.session + 1,
    );
  });

  it("lock code entry for everyone once all callers' wrong codes reach its limit", async () => {
    const { throttles } = memoryStores();
    for (let guess = 0; guess < USER_CODE_GUESS_LIMITS.everyone; guess++)
      await wrongGuess(throttles, `s${guess}`, `10.${guess >> 8}.${guess & 255}.1`, NOW);
    expect(await wrongGuess(throttles, "new", "172.16.0.1", at(1))).toBe(USER_CODE_LOCKOUT_SECONDS - 1);
  });
});
