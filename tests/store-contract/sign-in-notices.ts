/**
 * The sign-in notice store's contract: a notice found by its link's value (only the hash stored) with its mail queued,
 * and its "not me" used once, while current, ending everything the user's sign-ins left behind.
 */
import { describe, expect, it } from "vitest";
import { MAX_USER_AGENT_LENGTH } from "@/lib/config/policy";
import type { DisownRecord } from "@/lib/store/sign-in-notice-store";
import { freshValue, later, newPerson, NOW, type StoreBackend } from "./store-backend";

export function signInNoticeContract(backend: StoreBackend): void {
  const stores = () => backend.stores();
  const mail = (recipient: string, kind: string) => ({
    kind,
    recipient,
    language: "en",
    subject: `${kind} for ${recipient}`,
    sealedBody: "sealed",
  });
  const notice = async (userId: string, sentTo: string, expiresAt = later(7 * 86_400)) => {
    const value = freshValue("not-me");
    const sighting = { signedInAt: NOW, ipAddress: "192.0.2.9", userAgent: `Agent/${"x".repeat(400)}` };
    await stores().signInNotices.save(value, { userId, sentTo, ...sighting, expiresAt }, mail(sentTo, "notice"), NOW);
    return value;
  };
  const change = (userId: string, recipient: string): DisownRecord => ({
    mail: [mail(recipient, "reset")],
    event: { type: "user.sign_in_disowned", userId, details: { subjectUserId: userId } },
    passwordHash: "unusable-hash",
  });
  const subjects = async (recipient: string) =>
    (await stores().outbox.list(500)).filter((row) => row.recipient === recipient).map((row) => row.subject);

  describe("sign-in notices", () => {
    it("finds a notice by its link's value with its user, and queues its mail with it", async () => {
      const { id, email } = await person();
      const value = await notice(id, email);
      expect(await stores().signInNotices.find(value)).toMatchObject({
        userId: id,
        sentTo: email,
        signedInAt: NOW,
        ipAddress: "192.0.2.9",
        userAgent: `Agent/${"x".repeat(MAX_USER_AGENT_LENGTH - 6)}`,
        expiresAt: later(7 * 86_400),
        usedAt: null,
        user: { id, email, company: { id: backend.subjects().companyId } },
      });
      expect(await stores().signInNotices.find(freshValue("not-me"))).toBeNull();
      expect(await subjects(email)).toEqual([`notice for ${email}`]);
    });

    it("disowns once: sessions, refresh tokens and tickets end, with the change's mail and event", async () => {
      const { id, email } = await person();
      const value = await notice(id, email);
      const session = await stores().loginSessions.save(freshValue("cookie"), id, {}, NOW, ["pwd"]);
      const refresh = freshValue("rt");
      const { clientId } = backend.subjects();
      const grant = { familyId: crypto.randomUUID(), clientId, userId: id, consentId: null, authorizationCodeId: null };
      const facts = { loginSessionId: null, scopes: ["openid"], authTime: NOW, amr: ["pwd" as const], dpopJkt: null };
      await stores().refreshTokens.save(refresh, { ...grant, ...facts, resources: [] }, NOW);
      const ticket = crypto.randomUUID();
      await stores().tickets.save(ticket, id, NOW, later(3600));

      const found = (await stores().signInNotices.find(value))!;
      expect(await stores().signInNotices.disown(found.id, id, change(id, email), later(1))).toEqual([session]);
      expect(await stores().signInNotices.disown(found.id, id, change(id, email), later(2))).toBeNull();
      expect((await stores().signInNotices.find(value))!.usedAt).toEqual(later(1));
      expect(await stores().loginSessions.listCurrent(id, later(1))).toEqual([]);
      expect((await stores().users.findByEmail(email))!.signedOutAt).toEqual(later(1));
      // The password that signed in stops working: the hash is the change's.
      expect((await stores().users.findByEmail(email))!.passwordHash).toBe("unusable-hash");
      expect((await stores().refreshTokens.find(refresh))!.revokedAt).toEqual(later(1));
      expect((await stores().tickets.findWithUser(ticket))!.revokedAt).toEqual(later(1));
      expect(await subjects(email)).toEqual(expect.arrayContaining([`notice for ${email}`, `reset for ${email}`]));
      expect(await subjects(email)).toHaveLength(2);
      const events = await stores().audit.list({ type: "user.sign_in_disowned", userId: id }, 10);
      expect(events).toHaveLength(1);
    });

    it("refuses an expired link, and another user's notice id", async () => {
      const { id, email } = await person();
      const other = await person();
      const expired = (await stores().signInNotices.find(await notice(id, email, later(60))))!;
      expect(await stores().signInNotices.disown(expired.id, id, change(id, email), later(60))).toBeNull();
      const currentValue = await notice(id, email);
      const current = (await stores().signInNotices.find(currentValue))!;
      expect(await stores().signInNotices.disown(current.id, other.id, change(other.id, other.email), NOW)).toBeNull();
      expect((await stores().signInNotices.find(currentValue))!.usedAt).toBeNull();
      expect(await stores().audit.list({ type: "user.sign_in_disowned", userId: id }, 10)).toEqual([]);
    });
  });

  const person = () => newPerson(backend, "notice");
}
