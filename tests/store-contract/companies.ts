/**
 * The company store's contract: companies with their web services, unique ids and supplier ids, deactivation that
 * takes its users along and brings back exactly them, the second-factor rule that ends the sessions without one, and
 * the sign-in notices switch.
 */
import { describe, expect, it } from "vitest";
import { freshValue, NOW, type StoreBackend } from "./store-backend";

const supplier = (supplierId: string) => ({
  name: "Contract Lenses",
  kind: "supplier",
  supplierId,
  webServices: [
    { type: "catalog", name: "second", url: "https://lenses.example/b", priority: 2 },
    { type: "catalog", name: "first", url: "https://lenses.example/a", priority: 1 },
  ],
});

async function member(backend: StoreBackend, companyId: string, label: string) {
  const email = `${freshValue(label)}@contract.example`;
  const users = backend.stores().users;
  await users.save({
    email,
    companyId,
    givenName: "Pia",
    familyName: "Muster",
    role: "user",
    emailVerified: true,
    passwordHash: "x",
  });
  return (await users.findIdByEmail(email))!;
}

export function companyContract(backend: StoreBackend): void {
  describe("companies", () => {
    it("registers a supplier with its web services in order, once per id and supplier id, and replaces them", async () => {
      const companies = backend.stores().companies;
      const id = freshValue("supplier");
      const supplierId = freshValue("SUP");
      const added = await companies.insert(id, supplier(supplierId), "operator-1");
      expect(added).toMatchObject({ id, name: "Contract Lenses", kind: "supplier", supplierId, active: true });
      expect(typeof added === "object" && added.webServices.map((service) => service.name)).toEqual([
        "first",
        "second",
      ]);
      expect(await companies.insert(id, supplier(freshValue("SUP")))).toBe("id_taken");
      expect(await companies.insert(freshValue("other"), supplier(supplierId))).toBe("supplier_id_taken");
      expect(await companies.findSupplier(supplierId)).toEqual({ id, name: "Contract Lenses" });
      expect(await companies.exists(id)).toBe(true);
      expect(await companies.findStates([id, "no-such-company"])).toEqual(
        new Map([[id, { name: "Contract Lenses", kind: "supplier", active: true }]]),
      );
      const replaced = await companies.replace(id, { ...supplier(supplierId), name: "Renamed", webServices: [] });
      expect(replaced).toMatchObject({ id, name: "Renamed", webServices: [] });
      expect((await companies.findRecord(id))?.webServices).toEqual([]);
      expect((await companies.listRecords()).some((record) => record.id === id && record.name === "Renamed")).toBe(
        true,
      );
      expect(await companies.replace(freshValue("missing"), supplier(freshValue("SUP")))).toBe("not_found");
      const events = await backend.stores().audit.list({ type: "company.added", userId: "operator-1" }, 50);
      expect(events.some((event) => JSON.parse(event.details).companyId === id)).toBe(true);
    });

    it("deactivates a company with its active users and their sessions, and activates exactly them again", async () => {
      const stores = backend.stores();
      const id = freshValue("optician");
      await stores.companies.insert(id, { name: "Optik Kontrakt", kind: "eye_care_professional", webServices: [] });
      const userId = await member(backend, id, "staff");
      const sessionId = await stores.loginSessions.save(freshValue("cookie"), userId, {}, NOW, ["pwd"]);
      const outcome = await stores.companies.deactivate(id, undefined, NOW);
      expect(outcome).toEqual({ userIds: [userId], sessionIds: [sessionId] });
      expect(await stores.users.findActivity(userId)).toEqual({ id: userId, active: false });
      expect(await stores.companies.deactivate(id)).toBe("unchanged");
      expect(await stores.companies.activate(id)).toBe(1);
      expect(await stores.users.findActivity(userId)).toEqual({ id: userId, active: true });
      expect(await stores.companies.activate(id)).toBe("unchanged");
      expect(await stores.companies.deactivate(freshValue("missing"))).toBe("not_found");
    });

    it("requires a second factor, ending the sessions that gave none but the one kept; an operator's rule stays", async () => {
      const stores = backend.stores();
      const id = freshValue("strict");
      await stores.companies.insert(id, { name: "Optik Streng", kind: "eye_care_professional", webServices: [] });
      const userId = await member(backend, id, "strict");
      const plain = await stores.loginSessions.save(freshValue("plain"), userId, {}, NOW, ["pwd"]);
      const kept = await stores.loginSessions.save(freshValue("kept"), userId, {}, NOW, ["pwd"]);
      await stores.loginSessions.save(freshValue("strong"), userId, {}, NOW, ["pwd", "otp", "mfa"]);
      const change = { required: true, byOperator: true, keepSessionId: kept };
      expect(await stores.companies.saveSecondFactorRequirement(id, change, NOW)).toEqual({ endedSessionIds: [plain] });
      expect(await stores.companies.find(id)).toMatchObject({
        requireSecondFactor: true,
        secondFactorRuleByOperator: true,
      });
      const lifting = { required: false, byOperator: false };
      expect(await stores.companies.saveSecondFactorRequirement(id, lifting)).toBe("operator_rule");
      expect(await stores.companies.saveSecondFactorRequirement(freshValue("missing"), lifting)).toBe("not_found");
    });

    it("keeps sign-in notices at the kind's default until switched, and audits each switch", async () => {
      const stores = backend.stores();
      const id = freshValue("notices");
      await stores.companies.insert(id, { name: "Optik Wach", kind: "eye_care_professional", webServices: [] });
      expect((await stores.companies.find(id))?.signInNotices).toBeNull();
      expect(await stores.companies.saveSignInNotices(id, true, "admin-1")).toBe(true);
      expect((await stores.companies.find(id))?.signInNotices).toBe(true);
      expect(await stores.companies.saveSignInNotices(id, false)).toBe(true);
      expect((await stores.companies.findRecord(id))?.signInNotices).toBe(false);
      expect(await stores.companies.saveSignInNotices(freshValue("missing"), true)).toBe(false);
      const events = await stores.audit.list({ type: "company.updated", userId: "admin-1" }, 50);
      expect(events.map((event) => JSON.parse(event.details))).toContainEqual({ companyId: id, signInNotices: true });
    });
  });
}
