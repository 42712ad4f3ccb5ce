/** The account-link store's contract: one link per purpose, used once, and what each use changes and ends. */
import { describe, expect, it } from "vitest";
import type { AccountLinkPurpose, ChangeRecord } from "@/lib/store/models/account-link";
import { freshValue, later, newPerson, NOW, type StoreBackend } from "./store-backend";

export function accountLinkContract(backend: StoreBackend): void {
  const stores = () => backend.stores();
  const person = () => newPerson(backend, "link");
  const change = (userId: string, step: string): ChangeRecord => ({
    mail: [],
    event: { type: "user.password_reset", userId, details: { step } },
  });
  const link = async (
    userId: string,
    sentTo: string,
    purpose: AccountLinkPurpose = "password_reset",
    newEmail?: string,
  ) => {
    const value = freshValue("value");
    const expiresAt = later(3600);
    await stores().accountLinks.save(
      value,
      { userId, purpose, sentTo, newEmail, expiresAt },
      change(userId, "sent"),
      NOW,
    );
    return value;
  };

  describe("account links", () => {
    it("keeps one link per purpose: the newest replaces the earlier, found by its value with the user", async () => {
      const { id, email } = await person();
      const first = await link(id, email);
      const second = await link(id, email);
      expect(await stores().accountLinks.find(first)).toBeNull();
      expect(await stores().accountLinks.find(second)).toMatchObject({
        userId: id,
        purpose: "password_reset",
        sentTo: email,
        usedAt: null,
        expiresAt: later(3600),
        user: { id, email, company: { id: backend.subjects().companyId } },
      });
      const events = await stores().audit.list({ type: "user.password_reset", userId: id }, 10);
      expect(events).toHaveLength(2);
    });

    it("resets the password once, ends sessions, tokens and tickets, and closes the user's other links", async () => {
      const { id, email } = await person();
      const value = await link(id, email);
      const confirm = await link(id, email, "email_change", `${freshValue("new")}@contract.example`);
      const session = await stores().loginSessions.save(freshValue("cookie"), id, {}, NOW, ["pwd"]);
      const refresh = freshValue("rt");
      const { clientId } = backend.subjects();
      const grant = { familyId: crypto.randomUUID(), clientId, userId: id, consentId: null, authorizationCodeId: null };
      const facts = { loginSessionId: null, scopes: ["openid"], authTime: NOW, amr: ["pwd" as const], dpopJkt: null };
      await stores().refreshTokens.save(refresh, { ...grant, ...facts, resources: [] }, NOW);
      const ticket = crypto.randomUUID();
      await stores().tickets.save(ticket, id, NOW, later(3600));

      const found = (await stores().accountLinks.find(value))!;
      const ref = { id: found.id, tokenHash: found.tokenHash, userId: id };
      expect(await stores().accountLinks.resetPassword(ref, "new-hash", change(id, "set"), later(1))).toEqual([
        session,
      ]);
      expect(await stores().accountLinks.resetPassword(ref, "other", change(id, "again"), later(2))).toBeNull();
      expect((await stores().users.findByEmail(email))!.passwordHash).toBe("new-hash");
      expect((await stores().users.findByEmail(email))!.signedOutAt).toEqual(later(1));
      expect((await stores().refreshTokens.find(refresh))!.revokedAt).toEqual(later(1));
      expect((await stores().tickets.findWithUser(ticket))!.revokedAt).toEqual(later(1));
      expect((await stores().accountLinks.find(value))!.usedAt).toEqual(later(1));
      expect(await stores().accountLinks.find(confirm)).toBeNull();
    });

    it("changes a password and ends the other sessions only when asked to", async () => {
      const { id, email } = await person();
      const kept = await stores().loginSessions.save(freshValue("c"), id, {}, NOW, ["pwd"]);
      const other = await stores().loginSessions.save(freshValue("c"), id, {}, NOW, ["pwd"]);
      const links = stores().accountLinks;
      expect(
        await links.changePassword({ userId: id, signOutElsewhere: false }, "h2", change(id, "a"), later(1)),
      ).toEqual([]);
      const user = { userId: id, keepSessionId: kept, signOutElsewhere: true };
      expect(await links.changePassword(user, "h3", change(id, "b"), later(2))).toEqual([other]);
      expect((await stores().users.findByEmail(email))!.passwordHash).toBe("h3");
    });

    it("confirms a new address once, and never one that became another user's", async () => {
      const { id } = await person();
      const taken = await person();
      const newEmail = `${freshValue("moved")}@contract.example`;
      const value = await link(id, newEmail, "email_change", newEmail);
      expect(await stores().accountLinks.findOpen(id, "email_change", later(1))).toEqual({
        newEmail,
        expiresAt: later(3600),
      });
      const found = (await stores().accountLinks.find(value))!;
      const ref = { id: found.id, tokenHash: found.tokenHash, userId: id };
      const links = stores().accountLinks;
      expect(await links.confirmEmail({ ...ref, newEmail: taken.email }, change(id, "x"), later(1))).toBe(
        "email_taken",
      );
      expect(await links.confirmEmail({ ...ref, newEmail }, change(id, "y"), later(2))).toEqual({ endedSessions: [] });
      // The address is the user's own now; a second use of the link, for any address, finds it used.
      expect(await links.confirmEmail({ ...ref, newEmail }, change(id, "z"), later(3))).toBe("email_taken");
      const elsewhere = `${freshValue("elsewhere")}@contract.example`;
      expect(await links.confirmEmail({ ...ref, newEmail: elsewhere }, change(id, "z"), later(3))).toBe("used");
      expect(await stores().users.find(id)).toMatchObject({ email: newEmail, emailVerified: true });
      expect(await stores().accountLinks.findOpen(id, "email_change", later(4))).toBeNull();
    });
  });
}
