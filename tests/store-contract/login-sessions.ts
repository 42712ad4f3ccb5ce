/** The login-session store's contract: sessions by cookie value, their methods, endings and clients. */
import { describe, expect, it } from "vitest";
import { SESSION_LIFETIME_SECONDS } from "@/lib/config/policy";
import { freshValue, later, newPerson, NOW, type StoreBackend } from "./store-backend";

export function loginSessionContract(backend: StoreBackend): void {
  const person = async () => (await newPerson(backend, "session")).id;

  describe("login sessions", () => {
    it("finds a session by its cookie value with its user, methods and lifetime, and notes the sign-in", async () => {
      const userId = await person();
      const sessions = backend.stores().loginSessions;
      const cookie = freshValue("cookie");
      const id = await sessions.save(cookie, userId, { ipAddress: "192.0.2.7", userAgent: "Agent/1" }, NOW, ["pwd"]);
      const found = await sessions.find(cookie);
      expect(found).toMatchObject({
        id,
        userId,
        authTime: NOW,
        amr: ["pwd"],
        expiresAt: later(SESSION_LIFETIME_SECONDS),
        endedAt: null,
        ipAddress: "192.0.2.7",
        userAgent: "Agent/1",
        user: { id: userId, company: { id: backend.subjects().companyId }, lastSignInAt: NOW },
      });
      expect(await sessions.find(freshValue("cookie"))).toBeNull();
    });

    it("counts the current sessions, everyone's or one company's", async () => {
      const sessions = backend.stores().loginSessions;
      const { companyId } = backend.subjects();
      // Far in the future: only this test's sessions are current then.
      const at = later(400 * 24 * 3600);
      expect(await sessions.countCurrent(at)).toBe(0);
      const [first, second] = [await person(), await person()];
      await sessions.save(freshValue("cookie"), first, {}, at, ["pwd"]);
      const ended = await sessions.save(freshValue("cookie"), second, {}, at, ["pwd"]);
      await sessions.save(freshValue("cookie"), second, {}, at, ["pwd"]);
      await sessions.end(ended, at);
      expect(await sessions.countCurrent(later(60, at))).toBe(2);
      expect(await sessions.countCurrent(later(60, at), companyId)).toBe(2);
      expect(await sessions.countCurrent(later(60, at), freshValue("company"))).toBe(0);
      expect(await sessions.countCurrent(later(SESSION_LIFETIME_SECONDS + 1, at))).toBe(0);
    });

    it("raises a current session's methods, but not an ended one's", async () => {
      const userId = await person();
      const sessions = backend.stores().loginSessions;
      const cookie = freshValue("cookie");
      const id = await sessions.save(cookie, userId, {}, NOW, ["pwd"]);
      expect(await sessions.raise(id, ["pwd", "otp", "mfa"], later(5))).toBe(true);
      expect(await sessions.find(cookie)).toMatchObject({ amr: ["pwd", "otp", "mfa"], authTime: later(5) });
      await sessions.end(id, later(6));
      expect(await sessions.raise(id, ["pwd", "hwk", "mfa"], later(7))).toBe(false);
      expect((await sessions.find(cookie))!.endedAt).toEqual(later(6));
    });

    it("lists a user's current sessions, ends one of them only for its user, or all but one", async () => {
      const userId = await person();
      const other = await person();
      const sessions = backend.stores().loginSessions;
      const first = await sessions.save(freshValue("c"), userId, {}, NOW, ["pwd"]);
      const second = await sessions.save(freshValue("c"), userId, {}, later(1), ["pwd"]);
      const third = await sessions.save(freshValue("c"), userId, {}, later(2), ["pwd"]);
      await sessions.touch(first, later(120), 60_000);
      expect((await sessions.listCurrent(userId, later(130))).map((session) => session.id)).toEqual([
        first,
        third,
        second,
      ]);
      expect(await sessions.endOne(other, first, later(140))).toBe(false);
      expect(await sessions.endOne(userId, first, later(140))).toBe(true);
      expect(await sessions.endAll(userId, later(150), third)).toEqual([second]);
      expect((await sessions.listCurrent(userId, later(160))).map((session) => session.id)).toEqual([third]);
      expect(await sessions.listCurrent(userId, later(SESSION_LIFETIME_SECONDS + 10))).toEqual([]);
    });

    it("keeps the company's provider of a session, and ends what its back-channel logout names", async () => {
      const userId = await person();
      const sessions = backend.stores().loginSessions;
      const { companyId } = backend.subjects();
      const issuer = `https://${freshValue("idp")}.example`;
      const subject = freshValue("sub");
      await backend.stores().companySso.linkIdentity({ issuer, subject, companyId }, userId);
      const cookie = freshValue("c");
      const first = await sessions.save(cookie, userId, {}, NOW, ["fed"], { issuer, sid: "sid-1" });
      const second = await sessions.save(freshValue("c"), userId, {}, NOW, ["fed"], { issuer });
      const own = freshValue("c");
      const byPassword = await sessions.save(own, userId, {}, NOW, ["pwd"]);
      const elsewhere = await sessions.save(freshValue("c"), userId, {}, NOW, ["fed"], { issuer: `${issuer}/x` });
      expect(await sessions.find(cookie)).toMatchObject({ upstreamIssuer: issuer, upstreamSid: "sid-1" });
      expect(await sessions.find(own)).toMatchObject({ upstreamIssuer: null, upstreamSid: null });

      const match = { issuer, companyIds: [companyId] };
      expect(await sessions.endUpstream({ ...match, companyIds: [freshValue("company")], subject }, later(1))).toEqual(
        [],
      );
      expect(await sessions.endUpstream({ ...match, subject: freshValue("someone") }, later(1))).toEqual([]);
      expect(await sessions.endUpstream({ ...match, subject, sid: "sid-2" }, later(1))).toEqual([]);
      expect(await sessions.endUpstream({ ...match, sid: "sid-1" }, later(2))).toEqual([{ id: first, userId }]);
      expect((await sessions.find(cookie))!.endedAt).toEqual(later(2));
      expect(await sessions.endUpstream({ ...match, subject }, later(3))).toEqual([{ id: second, userId }]);
      const current = (await sessions.listCurrent(userId, later(4))).map((session) => session.id);
      expect(current.sort()).toEqual([byPassword, elsewhere].sort());
    });

    it("remembers each client a session signed in to once", async () => {
      const userId = await person();
      const sessions = backend.stores().loginSessions;
      const { clientId, otherClientId } = backend.subjects();
      const id = await sessions.save(freshValue("c"), userId, {}, NOW, ["pwd"]);
      await sessions.rememberClient(id, clientId);
      await sessions.rememberClient(id, clientId);
      await sessions.rememberClient(id, otherClientId);
      const clients = await sessions.listClients([id]);
      expect(clients.map((row) => row.clientId).sort()).toEqual([clientId, otherClientId].sort());
      expect(clients.every((row) => row.sessionId === id && row.userId === userId)).toBe(true);
    });
  });
}
