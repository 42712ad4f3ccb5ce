/**
 * The cookies that stand for a person or a mailed link carry the `__Host-` prefix over https (security review 4,
 * info 14): a sibling subdomain can neither set nor overwrite them, and a cookie of the bare name is not read there.
 */
import { describe, expect, it } from "vitest";
import { linkTokenCookie, resetReturnCookie } from "@/lib/http/link-token-cookies";
import { pendingSignInCookie, readPendingSignIn } from "@/lib/session/pending-sign-in";
import { readSessionCookie, sessionCookie } from "@/lib/session/session-cookie";

const HTTPS = "https://id.optigate.example";
const HTTP = "http://localhost:3000";
const withCookie = (cookie: string) => new Request(`${HTTPS}/`, { headers: { cookie } });
const SECRET = "unit-test-secret-key-0123456789abcdef";

describe("cookies of a person or a link", () => {
  it("take the __Host- prefix over https, with Secure and Path=/, and keep their names over http", () => {
    const written = [
      sessionCookie("v", HTTPS),
      pendingSignInCookie("user", { secretKey: SECRET, publicUrl: HTTPS }),
      linkTokenCookie("/password/reset", "t".repeat(43), HTTPS),
      resetReturnCookie("/portal", HTTPS)!,
    ];
    for (const cookie of written) {
      expect(cookie).toMatch(/^__Host-optigate_[a-z_]+=/);
      expect(cookie).toContain("; Path=/;");
      expect(cookie).toContain("Secure");
      expect(cookie).not.toContain("Domain");
    }
    expect(sessionCookie("v", HTTP)).toMatch(/^optigate_session=v; Path=\//);
  });

  it("reads only the prefixed name over https: a planted bare cookie is not the session", () => {
    expect(readSessionCookie(withCookie("optigate_session=planted"), HTTPS)).toBeUndefined();
    expect(readSessionCookie(withCookie("__Host-optigate_session=mine"), HTTPS)).toBe("mine");
    expect(readPendingSignIn(withCookie("optigate_second_step=planted"), HTTPS)).toBeUndefined();
    expect(readSessionCookie(withCookie("optigate_session=local"), HTTP)).toBe("local");
  });
});
