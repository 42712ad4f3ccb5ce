/**
 * scrypt hashes, OptiGate's before Argon2id, are made anew as Argon2id at the next successful password check: the
 * login form, SilentLogin, the current password of an account change; a wrong password changes nothing, and a new hash
 * never overwrites a password changed meanwhile. At the full cost, not the low one vitest.config.ts sets.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { checkCurrentPassword } from "@/lib/account/current-password";
import { verifyPassword } from "@/lib/crypto/password";
import { hashWithScrypt } from "@/lib/crypto/scrypt-password";
import { getServiceContext } from "@/lib/service-context";
import { rehashOutdatedPassword } from "@/lib/session/password-rehash";
import { formRequest, UserAgent, useOAuthService } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const returnUrl = `/connect/authorize?${new URLSearchParams({ client_id: "demo-web", redirect_uri: "http://localhost:4000/callback", response_type: "code", scope: "openid", state: "s" })}`;
const ARGON2ID_AT_FULL_COST = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

beforeAll(() => vi.stubEnv("PASSWORD_HASH_COST", undefined));
afterAll(() => vi.unstubAllEnvs());

/** A user whose password was hashed with scrypt (at 2^15, for speed: the cost does not matter here). */
async function scryptUser(email: string, password: string): Promise<string> {
  const db = service().database.db;
  const company = await db.company.findFirstOrThrow({ where: { kind: "eye_care_professional" } });
  const passwordHash = await hashWithScrypt(password, { N: 2 ** 15, r: 8, p: 1 });
  await db.user.create({ data: { email, givenName: "S", familyName: "Crypt", companyId: company.id, passwordHash } });
  return passwordHash;
}

const storedHash = async (email: string) =>
  (await service().database.db.user.findUniqueOrThrow({ where: { email } })).passwordHash;

async function silentLogin(username: string, password: string): Promise<Response> {
  const { POST } = await import("@/app/services/login/SilentLogin/route");
  return POST(formRequest("/services/login/SilentLogin", { username, password }));
}

describe(`scrypt hashes made anew as Argon2id on ${testProvider()}`, () => {
  it("at the login form's next successful sign-in, and only then", async () => {
    const old = await scryptUser("form@rehash.test", "Old#2026 form");
    await new UserAgent().login(returnUrl, "form@rehash.test", "wrong");
    expect(await storedHash("form@rehash.test")).toBe(old);
    const signIn = await new UserAgent().login(returnUrl, "form@rehash.test", "Old#2026 form");
    expect(signIn.headers.get("location")).toBe(returnUrl);
    const rehashed = await storedHash("form@rehash.test");
    expect(rehashed).toMatch(ARGON2ID_AT_FULL_COST);
    expect(await verifyPassword("Old#2026 form", rehashed)).toBe(true);
    const again = await new UserAgent().login(returnUrl, "form@rehash.test", "Old#2026 form");
    expect(again.headers.get("location")).toBe(returnUrl);
    expect(await storedHash("form@rehash.test")).toBe(rehashed);
  });

  it("at SilentLogin", async () => {
    const old = await scryptUser("silent@rehash.test", "Old#2026 silent");
    expect((await silentLogin("silent@rehash.test", "Old#2026 wrong")).status).toBe(401);
    expect(await storedHash("silent@rehash.test")).toBe(old);
    const response = await silentLogin("silent@rehash.test", "Old#2026 silent");
    expect(response.status).toBe(200);
    expect((await response.json()).ticket).toEqual(expect.any(String));
    const rehashed = await storedHash("silent@rehash.test");
    expect(rehashed).toMatch(ARGON2ID_AT_FULL_COST);
    expect((await silentLogin("silent@rehash.test", "Old#2026 silent")).status).toBe(200);
  });

  it("when the current password confirms an account change", async () => {
    const old = await scryptUser("current@rehash.test", "Old#2026 current");
    const context = getServiceContext();
    const user = (await context.stores.users.findByEmail("current@rehash.test"))!;
    expect(await checkCurrentPassword(context, user, "Old#2026 wrong", "192.0.2.1")).toEqual({
      ok: false,
      problem: "wrong_current_password",
    });
    expect(await storedHash("current@rehash.test")).toBe(old);
    expect(await checkCurrentPassword(context, user, "Old#2026 current", "192.0.2.1")).toEqual({ ok: true });
    const rehashed = await storedHash("current@rehash.test");
    expect(rehashed).toMatch(ARGON2ID_AT_FULL_COST);
    expect(await verifyPassword("Old#2026 current", rehashed)).toBe(true);
  });

  it("never over a password changed since the old hash was read", async () => {
    const old = await scryptUser("changed@rehash.test", "Old#2026 changed");
    const db = service().database.db;
    const { id } = await db.user.update({ where: { email: "changed@rehash.test" }, data: { passwordHash: "changed" } });
    await rehashOutdatedPassword(getServiceContext().stores.users, { id, passwordHash: old }, "Old#2026 changed");
    expect(await storedHash("changed@rehash.test")).toBe("changed");
  });
});
