/**
 * Rotating SECRET_KEY (security review 4, finding 10): values sealed under the old key open while SECRET_KEYS lists
 * it after the new one; `keys reseal` seals what is stored under the newest; once the old key is dropped, what it
 * alone sealed is refused cleanly, and nothing stored needs it any more.
 */
import { afterAll, describe, expect, it } from "vitest";
import { acceptOlderSecretKeys, isSealedUnder, seal, unseal } from "@/lib/crypto/secret-box";
import { loadConfig } from "@/lib/config";
import { sealedCookie, unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { openMailBody, sealMail } from "@/lib/mail/outbox";
import { prismaStores } from "@/lib/store/stores";
import { basic, call, formRequest, ISSUER, SECRET_KEY, useOAuthService } from "../../helpers/oauth-service";
import { runAdmin } from "../../helpers/admin-cli";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const db = () => service().database.db;
const NEW_KEY = "the-new-secret-key-after-rotation-0123456789";

afterAll(() => acceptOlderSecretKeys(NEW_KEY, []));

async function reseal(secretKey: string): Promise<string[]> {
  const { code, stdoutLines } = await runAdmin(db(), ["keys", "reseal"], { secretKey });
  expect(code).toBe(0);
  return stdoutLines;
}

describe(`rotating SECRET_KEY on ${testProvider()}`, () => {
  it("reads SECRET_KEYS newest first, refusing short keys and a second variable", () => {
    const base = { DATABASE_URL: "file:/tmp/optigate-rotation.db" };
    const config = loadConfig({ ...base, SECRET_KEYS: `${NEW_KEY}, ${SECRET_KEY}` });
    expect([config.secretKey, config.olderSecretKeys]).toEqual([NEW_KEY, [SECRET_KEY]]);
    expect(() => loadConfig({ ...base, SECRET_KEYS: `${NEW_KEY},short` })).toThrow(/key 2 must be at least/);
    expect(() => loadConfig({ ...base, SECRET_KEYS: NEW_KEY, SECRET_KEY })).toThrow(/SECRET_KEYS/);
  });

  it("opens the old key's values beside the new one, reseals what is stored, then refuses the old key's alone", async () => {
    // Under the old key: the signing keys (made by a first token), a queued mail and a flash cookie.
    const token = await call(
      "token",
      formRequest(
        "/connect/token",
        { grant_type: "client_credentials" },
        { authorization: basic("demo-backend", "demo-backend-secret") },
      ),
    );
    expect(token.status).toBe(200);
    const content = { subject: "Hello", text: "kept across the rotation", html: "<p>kept</p>" };
    await prismaStores(db()).outbox.queue(
      sealMail(SECRET_KEY, { kind: "test", recipient: "rotation@example.com", language: "en", content }),
      new Date(),
    );
    const cookie = sealedCookie(
      "optigate_test",
      { shown: "once" },
      { secretKey: SECRET_KEY, publicUrl: ISSUER, path: "/" },
    );
    const cookieValue = cookie.slice(cookie.indexOf("=") + 1, cookie.indexOf(";"));

    acceptOlderSecretKeys(NEW_KEY, [SECRET_KEY]);
    expect(unsealedCookieValue("optigate_test", cookieValue, NEW_KEY)).toEqual({ shown: "once" });
    expect((await prismaStores(db()).signingKeys.keySet(NEW_KEY)).active.size).toBeGreaterThan(0);
    const printed = await reseal(NEW_KEY);
    expect(printed.join("\n")).toMatch(/signingKeys: [1-9]\d* sealed anew/);
    expect(printed.join("\n")).toMatch(/queuedMail: [1-9]\d* sealed anew/);
    for (const row of await db().signingKey.findMany())
      expect(isSealedUnder(row.privateKeyEncrypted, NEW_KEY), row.id).toBe(true);
    expect((await reseal(NEW_KEY)).join("\n")).toMatch(/signingKeys: 0 sealed anew/);

    // The old key dropped: stored values open under the new key alone; the old key's cookie is refused, not a crash.
    acceptOlderSecretKeys(NEW_KEY, []);
    const mail = await db().outboxMessage.findFirstOrThrow({ where: { recipient: "rotation@example.com" } });
    expect(openMailBody(NEW_KEY, mail.sealedBody!).text).toBe("kept across the rotation");
    for (const row of await db().signingKey.findMany())
      expect(unseal(row.privateKeyEncrypted, NEW_KEY, "signing-key-encryption")).toContain("PRIVATE KEY");
    expect(unsealedCookieValue("optigate_test", cookieValue, NEW_KEY)).toBeUndefined();
    expect(() => unseal(seal("x", SECRET_KEY, "outbox"), NEW_KEY, "outbox")).toThrow(/no longer accepted/);
  });
});
