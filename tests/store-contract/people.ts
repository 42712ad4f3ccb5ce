/**
 * The people store's contract: listing with lock-outs, deactivating (signed out, invitations they sent withdrawn) and
 * activating by the operator's or an administrator's word, roles, and erasing a person with every trace of them.
 */
import { describe, expect, it } from "vitest";
import { accountThrottleKey } from "@/lib/store/throttle-store";
import { freshValue, later, newPerson, NOW, type StoreBackend } from "./store-backend";

export function peopleContract(backend: StoreBackend): void {
  describe("people", () => {
    it("lists a user with the lock-out in force, and lifts it", async () => {
      const { email, id } = await newPerson(backend, "locked");
      const stores = backend.stores();
      await stores.throttles.reserve(accountThrottleKey(email), 900, NOW);
      await stores.throttles.lockWhenReached(accountThrottleKey(email), 1, later(600), NOW);
      expect(await stores.people.list({ email }, NOW)).toEqual([
        expect.objectContaining({ id, email, active: true, role: "user", lockedUntil: later(600) }),
      ]);
      expect(await stores.people.unlock(email, "operator-1")).toBe("unlocked");
      expect((await stores.people.list({ email }, NOW))[0].lockedUntil).toBeNull();
      expect(await stores.people.unlock(`${freshValue("nobody")}@contract.example`)).toBe("not_found");
    });

    it("deactivates a user with their sessions and sent invitations, and keeps an operator's decision", async () => {
      const { companyId } = backend.subjects();
      const { email, id } = await newPerson(backend, "leaving");
      const stores = backend.stores();
      const sessionId = await stores.loginSessions.save(freshValue("cookie"), id, {}, NOW, ["pwd"]);
      const invited = `${freshValue("invitee")}@contract.example`;
      const invitation = { email: invited, companyId, role: "user", language: "en", tokenHash: freshValue("h") };
      async function* chunk() {
        yield [
          {
            invitation: { ...invitation, invitedByUserId: id, expiresAt: later(86_400) },
            mail: { kind: "invitation", recipient: invited, language: "en", subject: "Invitation", sealedBody: "x" },
            event: { type: "user.invited" as const },
          },
        ];
      }
      await stores.invitations.save(chunk(), NOW);
      expect(await stores.people.deactivate(email, { byOperator: true }, NOW)).toEqual([sessionId]);
      expect(await stores.invitations.listPending({ email: invited })).toEqual([]);
      expect(await stores.people.deactivate(email, { byOperator: false })).toBe("unchanged");
      expect(await stores.people.activate(email, { byOperator: false })).toBe("operator_decision");
      expect(await stores.people.activate(email, { byOperator: true })).toBe("activated");
      expect(await stores.people.activate(email, { byOperator: true })).toBe("unchanged");
    });

    it("changes roles and counts a company's active administrators", async () => {
      const id = freshValue("admins");
      const stores = backend.stores();
      await stores.companies.insert(id, { name: "Optik Rollen", kind: "eye_care_professional", webServices: [] });
      const email = `${freshValue("chief")}@contract.example`;
      const person = {
        email,
        companyId: id,
        givenName: "Chef",
        familyName: "In",
        emailVerified: true,
        passwordHash: "x",
      };
      await stores.users.save({ ...person, role: "user" });
      expect(await stores.people.countActiveAdmins(id)).toBe(0);
      expect(await stores.people.changeRole(email, "admin", "operator-1")).toBe("changed");
      expect(await stores.people.changeRole(email, "admin")).toBe("unchanged");
      expect(await stores.people.countActiveAdmins(id)).toBe(1);
    });

    it("finds users by id, company, email or words of their email and names, a page at a time by email", async () => {
      const company = freshValue("search");
      const stores = backend.stores();
      await stores.companies.insert(company, { name: "Optik Suche", kind: "eye_care_professional", webServices: [] });
      const person = { companyId: company, role: "user", emailVerified: true, passwordHash: "x" };
      const people = [
        { email: `b-${company}@contract.example`, givenName: "Anna", familyName: "Schmidt" },
        { email: `a-${company}@contract.example`, givenName: "Bernd", familyName: "Schmidt-Lange" },
        { email: `c-${company}@contract.example`, givenName: "Clara", familyName: "Weiss" },
      ];
      for (const one of people) await stores.users.save({ ...person, ...one });
      const emails = async (where: Parameters<typeof stores.people.search>[0], after?: string, limit = 10) =>
        (await stores.people.search(where, { after, limit }, NOW)).map((user) => user.email);
      const [b, a, c] = people.map((one) => one.email);
      expect(await emails({ companyId: company })).toEqual([a, b, c]);
      expect(await emails({ companyId: company }, undefined, 2)).toEqual([a, b]);
      expect(await emails({ companyId: company }, b)).toEqual([c]);
      expect(await emails({ companyId: company, words: ["schmidt"] })).toEqual([a, b]);
      expect(await emails({ companyId: company, words: ["SCHMIDT", "anna"] })).toEqual([b]);
      expect(await emails({ words: [`c-${company}`] })).toEqual([c]);
      expect(await emails({ email: a })).toEqual([a]);
      expect(await emails({ email: a, companyId: freshValue("other") })).toEqual([]);
      const [found] = await stores.people.search({ email: c }, { limit: 1 }, NOW);
      expect(found).toMatchObject({
        email: c,
        companyId: company,
        givenName: "Clara",
        active: true,
        lockedUntil: null,
      });
      expect(await emails({ id: found.id })).toEqual([c]);
      expect(await emails({ id: found.id, companyId: freshValue("other") })).toEqual([]);
    });

    it("finds a word's %, _ and \\ literally, never as wildcards", async () => {
      const company = freshValue("wildcards");
      const stores = backend.stores();
      await stores.companies.insert(company, { name: "Optik 100%", kind: "eye_care_professional", webServices: [] });
      const person = { companyId: company, role: "user", emailVerified: true, passwordHash: "x" };
      const people = [
        { email: `percent-${company}@contract.example`, givenName: "Per%cent", familyName: "Muster" },
        { email: `under_score-${company}@contract.example`, givenName: "Uwe", familyName: "Muster" },
        { email: `slash-${company}@contract.example`, givenName: "Back\\slash", familyName: "Muster" },
        { email: `plain-${company}@contract.example`, givenName: "Peter", familyName: "Muster" },
      ];
      for (const one of people) await stores.users.save({ ...person, ...one });
      const [percent, underscore, slash] = people.map((one) => one.email);
      const emails = async (words: string[]) =>
        (await stores.people.search({ companyId: company, words }, { limit: 10 }, NOW)).map((user) => user.email);
      expect(await emails(["muster"])).toHaveLength(4);
      expect(await emails(["%"])).toEqual([percent]);
      expect(await emails(["_"])).toEqual([underscore]);
      expect(await emails(["\\"])).toEqual([slash]);
      expect(await emails(["R%C", "muster"])).toEqual([percent]);
      expect(await emails(["\\%"])).toEqual([]);
      expect(await emails(["p_t"])).toEqual([]);
      expect(await emails(["%e%"])).toEqual([]);
    });

    it("erases a user with their tokens and names them by a pseudonym in the audit trail", async () => {
      const { email, id } = await newPerson(backend, "erased");
      const stores = backend.stores();
      await stores.audit.record({ type: "user.unlocked", details: { subjectUserId: id, username: email } });
      await stores.loginSessions.save(freshValue("cookie"), id, {}, NOW, ["pwd"]);
      expect(await stores.people.remove(email, "operator-1")).toBe("removed");
      expect(await stores.users.find(id)).toBeNull();
      const events = await stores.audit.list({ type: "user.unlocked" }, 200);
      expect(events.some((event) => event.details.includes(email))).toBe(false);
      expect(events.some((event) => event.details.includes(`removed-user:${id}`))).toBe(true);
      expect(await stores.people.remove(email)).toBe("not_found");
    });

    it("erases someone invited who never joined, and nobody else", async () => {
      const { companyId } = backend.subjects();
      const stores = backend.stores();
      const invited = `${freshValue("never")}@contract.example`;
      async function* chunk() {
        yield [
          {
            invitation: {
              email: invited,
              companyId,
              role: "user",
              language: "en",
              tokenHash: freshValue("h"),
              expiresAt: later(86_400),
            },
            mail: { kind: "invitation", recipient: invited, language: "en", subject: "Invitation", sealedBody: "x" },
            event: { type: "user.invited" as const, details: { username: invited } },
          },
        ];
      }
      await stores.invitations.save(chunk(), NOW);
      expect(await stores.people.eraseInvited(invited, "operator-1")).toBe("erased");
      expect(await stores.invitations.listPending({ email: invited })).toEqual([]);
      expect((await stores.outbox.list(500)).some((mail) => mail.recipient === invited)).toBe(false);
      expect(await stores.people.eraseInvited(invited)).toBe("not_found");
    });
  });
}
