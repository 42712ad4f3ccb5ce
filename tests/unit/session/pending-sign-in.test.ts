/**
 * The pending sign-in cookie carries the first step to the second: the user, the methods, and the company's provider
 * the first step went through, so that the session the second step starts ends with the provider's logout.
 */
import { describe, expect, it } from "vitest";
import { pendingSignInCookie, pendingSignInUser } from "@/lib/session/pending-sign-in";

const CONFIG = { secretKey: "unit-test-secret-key-0123456789abcdef", publicUrl: "http://localhost:3000" };
const NOW = new Date("2026-11-27T10:00:00.000Z");
const valueOf = (cookie: string) => decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1, cookie.indexOf(";")));

describe("pendingSignInUser", () => {
  it("gives back the user, the methods and the provider of the first step while the step lasts", () => {
    const upstream = { issuer: "https://idp.frame-works.example", sid: "08a5019c" };
    const sealed = valueOf(pendingSignInCookie("user-1", CONFIG, NOW, ["fed"], upstream));
    expect(pendingSignInUser(sealed, CONFIG.secretKey, NOW)).toEqual({ userId: "user-1", amr: ["fed"], upstream });
    expect(pendingSignInUser(sealed, CONFIG.secretKey, new Date(NOW.getTime() + 301_000))).toBeUndefined();
  });

  it("holds no provider for a password's first step", () => {
    const sealed = valueOf(pendingSignInCookie("user-1", CONFIG, NOW));
    expect(pendingSignInUser(sealed, CONFIG.secretKey, NOW)).toEqual({ userId: "user-1", amr: ["pwd"] });
  });
});
