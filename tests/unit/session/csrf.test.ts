import { describe, expect, it } from "vitest";
import { CSRF_FIELD, csrfCookieName, csrfToken, isValidCsrfSubmission } from "@/lib/session/csrf";
import { sessionCookieName } from "@/lib/session/session-cookie";

const SECRET = "unit-test-secret-key-0123456789abcdef";
const ISSUER = "https://id.example.com";

function submission(cookies: Record<string, string>, token: string, origin?: string) {
  const cookie = Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
  const request = new Request(`${ISSUER}/interaction/portal`, {
    method: "POST",
    headers: { cookie, ...(origin ? { origin } : {}) },
  });
  return isValidCsrfSubmission(request, new URLSearchParams({ [CSRF_FIELD]: token }), SECRET, ISSUER);
}

describe("CSRF tokens", () => {
  it("use a __Host- cookie over https, a plain one over http", () => {
    expect(csrfCookieName("https://id.example.com")).toBe("__Host-optigate_csrf");
    expect(csrfCookieName("http://localhost:3000")).toBe("optigate_csrf");
  });

  it("are bound to the login session: a token of another session, or of none, does not count", () => {
    const cookie = "c".repeat(43);
    const name = csrfCookieName(ISSUER);
    const forSessionA = csrfToken(cookie, SECRET, "session-a");
    const session = sessionCookieName(ISSUER);
    expect(submission({ [name]: cookie, [session]: "session-a" }, forSessionA)).toBe(true);
    expect(submission({ [name]: cookie, [session]: "session-b" }, forSessionA)).toBe(false);
    expect(submission({ [name]: cookie }, forSessionA)).toBe(false);
    expect(submission({ [name]: cookie }, csrfToken(cookie, SECRET))).toBe(true);
  });

  it("refuse a missing cookie, the cookie without its prefix, and a foreign origin", () => {
    const cookie = "c".repeat(43);
    const token = csrfToken(cookie, SECRET);
    expect(submission({}, token)).toBe(false);
    expect(submission({ optigate_csrf: cookie }, token)).toBe(false);
    expect(submission({ [csrfCookieName(ISSUER)]: cookie }, token, "https://evil.example")).toBe(false);
    expect(submission({ [csrfCookieName(ISSUER)]: cookie }, token, "null")).toBe(true);
  });
});
