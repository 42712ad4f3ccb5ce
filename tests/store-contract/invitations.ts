/**
 * The invitation store's contract: invitations stored with their mail and events, all or none, one per address;
 * found by their link, withdrawn, and accepted once into a user.
 */
import { describe, expect, it } from "vitest";
import type { InvitationToStore } from "@/lib/store/invitation-store";
import { freshValue, later, newPerson, NOW, type StoreBackend } from "./store-backend";

function invitation(email: string, companyId: string, tokenHash = freshValue("hash")): InvitationToStore {
  return {
    invitation: { email, companyId, role: "user", language: "de", tokenHash, expiresAt: later(7 * 86_400) },
    mail: { kind: "invitation", recipient: email, language: "de", subject: "Einladung", sealedBody: "sealed" },
    event: { type: "user.invited", details: { username: email, companyId } },
  };
}

async function* chunks(...lists: InvitationToStore[][]) {
  yield* lists;
}

export function invitationContract(backend: StoreBackend): void {
  describe("invitations", () => {
    it("stores invitations with their mail, lists the pending ones, and finds one by its link", async () => {
      const { companyId } = backend.subjects();
      const stores = backend.stores();
      const [first, second] = [`${freshValue("a")}@contract.example`, `${freshValue("b")}@contract.example`];
      const hash = freshValue("hash");
      const saved = await stores.invitations.save(
        chunks([invitation(first, companyId, hash)], [invitation(second, companyId)]),
        NOW,
      );
      expect(saved).toEqual({ stored: 2 });
      expect(await stores.invitations.listPending({ email: first })).toEqual([
        {
          id: expect.any(String),
          email: first,
          companyId,
          role: "user",
          language: "de",
          givenName: null,
          familyName: null,
          invitedByUserId: null,
          createdAt: NOW,
          expiresAt: later(7 * 86_400),
        },
      ]);
      expect(await stores.invitations.findByTokenHash(hash)).toMatchObject({
        email: first,
        acceptedAt: null,
        company: { active: true },
      });
      expect(await stores.invitations.findByTokenHash(freshValue("unknown"))).toBeNull();
      expect((await stores.outbox.list(500)).filter((mail) => mail.recipient === first)).toHaveLength(1);
    });

    it("keeps an invitation's id and names when it is sent again in its company, and finds it by id", async () => {
      const { companyId } = backend.subjects();
      const stores = backend.stores();
      const email = `${freshValue("again")}@contract.example`;
      const named = invitation(email, companyId);
      named.invitation = { ...named.invitation, givenName: "Anna", familyName: "Schmidt" };
      await stores.invitations.save(chunks([named]), NOW);
      const [first] = await stores.invitations.listPending({ email });
      expect(first).toMatchObject({ givenName: "Anna", familyName: "Schmidt" });
      await stores.invitations.save(chunks([invitation(email, companyId)]), later(60));
      const [again] = await stores.invitations.listPending({ email });
      expect(again).toMatchObject({ id: first.id, createdAt: later(60), givenName: null });
      expect(await stores.invitations.listPending({ id: first.id, companyId })).toEqual([again]);
      expect(await stores.invitations.listPending({ id: first.id, companyId: freshValue("elsewhere") })).toEqual([]);
      // Another company's expired invitation lapses: the new one is another invitation.
      const other = freshValue("company");
      await stores.companies.insert(other, { name: "Neue Optik", kind: "eye_care_professional", webServices: [] });
      await stores.invitations.save(chunks([invitation(email, other)]), later(8 * 86_400));
      const [elsewhere] = await stores.invitations.listPending({ email });
      expect(elsewhere.companyId).toBe(other);
      expect(elsewhere.id).not.toBe(first.id);
    });

    it("refuses the whole batch when one address is a user's or pending at another company", async () => {
      const { companyId } = backend.subjects();
      const stores = backend.stores();
      const { email: taken } = await newPerson(backend, "member");
      const fresh = `${freshValue("fresh")}@contract.example`;
      expect(
        await stores.invitations.save(chunks([invitation(fresh, companyId)], [invitation(taken, companyId)]), NOW),
      ).toEqual({
        conflicts: [{ email: taken, reason: "already_user" }],
      });
      expect(await stores.invitations.listPending({ email: fresh })).toEqual([]);
      const other = freshValue("company");
      await stores.companies.insert(other, { name: "Andere Optik", kind: "eye_care_professional", webServices: [] });
      await stores.invitations.save(chunks([invitation(fresh, other)]), NOW);
      expect(await stores.invitations.save(chunks([invitation(fresh, companyId)]), NOW)).toEqual({
        conflicts: [{ email: fresh, reason: "invited_elsewhere" }],
      });
    });

    it("withdraws a pending invitation once, and accepts one once into a verified user", async () => {
      const { companyId } = backend.subjects();
      const stores = backend.stores();
      const [gone, joining] = [`${freshValue("gone")}@contract.example`, `${freshValue("join")}@contract.example`];
      const hash = freshValue("hash");
      await stores.invitations.save(chunks([invitation(gone, companyId), invitation(joining, companyId, hash)]), NOW);
      const withdrawn = { type: "user.invitation_revoked" as const, details: { username: gone } };
      expect(await stores.invitations.deletePending({ email: gone, companyId }, withdrawn)).toBe(true);
      expect(await stores.invitations.deletePending({ email: gone, companyId }, withdrawn)).toBe(false);
      const { id: invitationId } = (await stores.invitations.findByTokenHash(hash))!;
      const person = { invitationId, email: joining, companyId, role: "user", language: "de" };
      const joined = { ...person, givenName: "Jo", familyName: "Neu", passwordHash: "hash" };
      const accepted = await stores.invitations.accept(joined, NOW);
      expect(accepted).toEqual({ userId: expect.any(String) });
      expect(await stores.users.findByEmail(joining)).toMatchObject({ emailVerified: true, preferredLanguage: "de" });
      expect(await stores.invitations.accept(joined, NOW)).toBe("already_user");
      expect(await stores.invitations.listPending({ email: joining })).toEqual([]);
    });
  });
}
