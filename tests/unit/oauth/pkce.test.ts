/** PKCE with S256 only (RFC 7636): the challenge's form, and a verifier that must hash to it. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isValidS256Challenge, verifyCodeVerifier } from "@/lib/oauth/pkce";

// RFC 7636 Appendix B.
const RFC_VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const RFC_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
/** The S256 challenge of any string, so that a verifier of the wrong form is refused for its form alone. */
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

describe("isValidS256Challenge", () => {
  it.each([
    ["the RFC's example", RFC_CHALLENGE, true],
    ["43 base64url characters", "_".repeat(43), true],
    ["42 characters", RFC_CHALLENGE.slice(1), false],
    ["44 characters", `${RFC_CHALLENGE}A`, false],
    ["base64 padding", `${RFC_CHALLENGE.slice(1)}=`, false],
    ["a base64 '+'", `+${RFC_CHALLENGE.slice(1)}`, false],
    ["a base64 '/'", `/${RFC_CHALLENGE.slice(1)}`, false],
    ["a verifier's '.'", `.${RFC_CHALLENGE.slice(1)}`, false],
    ["empty", "", false],
  ])("%s: %s", (_, challenge, valid) => {
    expect(isValidS256Challenge(challenge)).toBe(valid);
  });
});

describe("verifyCodeVerifier", () => {
  it.each([
    ["the RFC's example", RFC_VERIFIER, RFC_CHALLENGE, true],
    ["a verifier of 43 characters", "a".repeat(43), "ZtNPunH49FD35FWYhT5Tv8I7vRKQJ8uxMaL0_9eHjNA", true],
    [
      "a verifier of 128 characters with every unreserved mark",
      `${"-._~".repeat(31)}abcd`,
      "ql05hKozQ0InFMptly-qayIAMnvn83e1kvMIoORdZhw",
      true,
    ],
    ["another verifier", `e${RFC_VERIFIER.slice(1)}`, RFC_CHALLENGE, false],
    ["the challenge as the verifier (plain)", RFC_CHALLENGE, RFC_CHALLENGE, false],
    ["a verifier of 42 characters", "a".repeat(42), s256("a".repeat(42)), false],
    ["a verifier of 129 characters", "a".repeat(129), s256("a".repeat(129)), false],
    ["a verifier with a space", `${RFC_VERIFIER.slice(1)} `, s256(`${RFC_VERIFIER.slice(1)} `), false],
    ["a verifier with '+'", `${RFC_VERIFIER.slice(1)}+`, s256(`${RFC_VERIFIER.slice(1)}+`), false],
    ["a verifier with '/'", `${RFC_VERIFIER.slice(1)}/`, s256(`${RFC_VERIFIER.slice(1)}/`), false],
    ["a challenge of another length", RFC_VERIFIER, RFC_CHALLENGE.slice(1), false],
    ["an empty challenge", RFC_VERIFIER, "", false],
  ])("%s: %s", (_, verifier, challenge, verified) => {
    expect(verifyCodeVerifier(verifier, challenge)).toBe(verified);
  });
});
