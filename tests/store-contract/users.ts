/** The user store's contract: users by id and email, with their company, and the changes sign-in makes. */
import { describe, expect, it } from "vitest";
import { freshValue, newPerson, type StoreBackend } from "./store-backend";

export function userContract(backend: StoreBackend): void {
  const saved = async () => {
    const email = `${freshValue("person")}@contract.example`;
    const { companyId } = backend.subjects();
    const users = backend.stores().users;
    await users.save({
      email,
      givenName: "Ada",
      familyName: "Muster",
      companyId,
      role: "user",
      emailVerified: true,
      passwordHash: "hash-1",
    });
    return { email, id: (await users.findIdByEmail(email))! };
  };

  describe("users", () => {
    it("saves a user, active, found by email and by id with their company", async () => {
      const { email, id } = await saved();
      const users = backend.stores().users;
      expect(id).toEqual(expect.any(String));
      expect(await users.findByEmail(email)).toMatchObject({ id, email, givenName: "Ada", active: true });
      const found = await users.find(id);
      expect(found).toMatchObject({ id, email, company: { id: backend.subjects().companyId } });
      expect(await users.findWithCompanyByEmail(email)).toEqual(found);
      expect(await users.findActive(id)).toMatchObject({ id, company: { id: backend.subjects().companyId } });
      expect(await users.findActivity(id)).toEqual({ id, active: true });
      expect(await users.findEmails([id, freshValue("nobody")])).toEqual(new Map([[id, email]]));
    });

    it("refuses a second user with the same email, and finds no unknown one", async () => {
      const { email } = await saved();
      const users = backend.stores().users;
      const again = { email, givenName: "B", familyName: "C", role: "user", emailVerified: false, passwordHash: "h" };
      await expect(users.save({ ...again, companyId: backend.subjects().companyId })).rejects.toThrow();
      expect(await users.findByEmail(`${freshValue("nobody")}@contract.example`)).toBeNull();
      expect(await users.find(freshValue("nobody"))).toBeNull();
      expect(await users.findIdByEmail(`${freshValue("nobody")}@contract.example`)).toBeNull();
    });

    it("says whether any password hash begins with a prefix", async () => {
      const { users } = backend.stores();
      const prefix = `${freshValue("algorithm")}$`;
      expect(await users.hasPasswordHashes(prefix)).toBe(false);
      const { id } = await newPerson(backend, "prefixed");
      expect(await users.replacePasswordHash(id, "old-hash", `${prefix}rest`)).toBe(true);
      expect(await users.hasPasswordHashes(prefix)).toBe(true);
    });

    it("replaces the password hash only while it is the one read, and stores the preferred language", async () => {
      const { email, id } = await saved();
      const users = backend.stores().users;
      expect(await users.replacePasswordHash(id, "hash-1", "hash-2")).toBe(true);
      expect(await users.replacePasswordHash(id, "hash-1", "hash-3")).toBe(false);
      expect(await users.replacePasswordHash(freshValue("nobody"), "hash-2", "hash-3")).toBe(false);
      await users.savePreferredLanguage(id, "de");
      expect(await users.findByEmail(email)).toMatchObject({ passwordHash: "hash-2", preferredLanguage: "de" });
      expect((await users.findActive(id))!.preferredLanguage).toBe("de");
    });
  });
}
