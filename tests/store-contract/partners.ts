/**
 * The partner store's contract: initial access tokens for active vendors, vendors' applications pending until the
 * operator decides on the version they saw, changes of approved ones waiting beside them, and expiry notices once.
 */
import { describe, expect, it } from "vitest";
import { registration } from "./clients";
import { freshValue, later, NOW, type StoreBackend } from "./store-backend";

async function vendor(backend: StoreBackend, scopes: string[] = ["platform.catalogs.read"]) {
  const id = freshValue("vendor");
  const stores = backend.stores();
  await stores.companies.insert(id, { name: "Praxis Software", kind: "software_vendor", webServices: [] });
  expect(await stores.partners.savePartnerAllowance(id, "partnerScopes", scopes)).toBe(true);
  return id;
}

const owner = (companyId: string, limit = 5) => ({ companyId, registrationTokenHash: freshValue("rat"), limit });

export function partnerContract(backend: StoreBackend): void {
  describe("partners", () => {
    it("finds an active vendor by a current initial access token only, with what it may ask for", async () => {
      const stores = backend.stores();
      const companyId = await vendor(backend);
      const resources = ["https://api.praxis.example/v1"];
      expect(await stores.partners.savePartnerAllowance(companyId, "partnerResources", resources)).toBe(true);
      const tokenHash = freshValue("iat");
      const id = await stores.partners.saveInitialAccessToken({ companyId, tokenHash, expiresAt: later(3600) });
      const allowance = { id: companyId, partnerScopes: ["platform.catalogs.read"], partnerResources: resources };
      expect(await stores.partners.findInitialAccessTokenCompany(tokenHash, NOW)).toEqual(allowance);
      expect(await stores.partners.findInitialAccessTokenCompany(tokenHash, later(7200))).toBeNull();
      expect(await stores.partners.findPartner(companyId)).toEqual({ ...allowance, active: true });
      // Setting one allowance leaves the other as it was.
      expect(await stores.partners.savePartnerAllowance(companyId, "partnerScopes", [])).toBe(true);
      expect(await stores.partners.findPartner(companyId)).toMatchObject({
        partnerScopes: [],
        partnerResources: resources,
      });
      expect(await stores.partners.findPartner(backend.subjects().companyId)).toBeNull();
      for (const field of ["partnerScopes", "partnerResources"] as const)
        expect(await stores.partners.savePartnerAllowance(backend.subjects().companyId, field, [])).toBe(false);
      expect(await stores.partners.revokeInitialAccessToken(id, NOW)).toBe(true);
      expect(await stores.partners.revokeInitialAccessToken(id, NOW)).toBe(false);
      expect(await stores.partners.findInitialAccessTokenCompany(tokenHash, NOW)).toBeNull();
    });

    it("keeps an application pending until the operator approves the version seen, up to the vendor's limit", async () => {
      const stores = backend.stores();
      const companyId = await vendor(backend);
      const id = freshValue("app");
      const rights = owner(companyId, 1);
      const pending = await stores.partners.insertPending({ ...registration(), id }, rights);
      expect(pending).toMatchObject({ id, status: "pending", ownerCompanyId: companyId, pendingMetadata: null });
      expect(await stores.clients.find(id)).toBeNull();
      expect(await stores.partners.insertPending({ ...registration(), id: freshValue("more") }, rights)).toBe(
        "too_many",
      );
      expect(await stores.partners.insertPending({ ...registration(), id }, owner(companyId))).toBe("taken");
      expect((await stores.partners.findByRegistrationToken(rights.registrationTokenHash))?.id).toBe(id);
      expect((await stores.partners.list(companyId)).map((app) => app.id)).toEqual([id]);
      if (typeof pending === "string") throw new Error(`not stored: ${pending}`);
      const changed = await stores.partners.saveChange(pending, {
        registration: registration({ names: { default: "Changed" }, backchannelLogoutUri: "https://app.example/bc" }),
        metadata: {},
      });
      expect(changed).toMatchObject({ status: "pending", names: { default: "Changed" } });
      const state = (await stores.partners.findReviewStates([id])).get(id)!;
      expect(state).toMatchObject({ status: "pending", owner: { id: companyId, name: "Praxis Software" } });
      const version = new Date(state.version);
      const approve = { approved: true as const };
      expect(
        await stores.partners.saveReview({ clientId: id, version: new Date(version.getTime() - 1) }, approve, []),
      ).toBe("changed");
      expect(await stores.partners.saveReview({ clientId: id, version }, approve, [], "operator-1")).toMatchObject({
        status: "approved",
      });
      // The protocol sees whose it is: a vendor's URLs are held to public addresses.
      expect(await stores.clients.find(id)).toMatchObject({
        id,
        names: { default: "Changed" },
        ownerCompanyId: companyId,
      });
      expect(await stores.clients.logoutUris([id])).toEqual([
        expect.objectContaining({ id, ownerCompanyId: companyId }),
      ]);
      expect(await stores.partners.saveReview({ clientId: id, version }, approve, [])).toBeNull();
    });

    it("lets an approved application's change wait beside it, and a rejection keep the approved version", async () => {
      const stores = backend.stores();
      const companyId = await vendor(backend);
      const id = freshValue("live");
      await stores.partners.insertPending({ ...registration(), id }, owner(companyId));
      const first = new Date((await stores.partners.findReviewStates([id])).get(id)!.version);
      await stores.partners.saveReview({ clientId: id, version: first }, { approved: true }, []);
      const approved = (await stores.partners.find(id))!;
      const waiting = await stores.partners.saveChange(approved, {
        registration: registration(),
        metadata: { client_name: "Neu" },
      });
      expect(waiting).toMatchObject({ status: "approved", pendingMetadata: { client_name: "Neu" } });
      const second = new Date((await stores.partners.findReviewStates([id])).get(id)!.version);
      const rejected = await stores.partners.saveReview(
        { clientId: id, version: second },
        { approved: false, note: "no" },
        [],
      );
      expect(rejected).toMatchObject({ status: "approved", pendingMetadata: null, reviewNote: "no" });
      expect(await stores.clients.find(id)).not.toBeNull();
    });

    it("lists a vendor's secrets about to expire and marks their developers told once, with the mail", async () => {
      const stores = backend.stores();
      const companyId = await vendor(backend);
      const developer = `${freshValue("dev")}@contract.example`;
      const person = { email: developer, companyId, givenName: "Dev", familyName: "Eloper", emailVerified: true };
      await stores.users.save({ ...person, role: "developer", passwordHash: "x" });
      expect(await stores.partners.findVendorDevelopers(companyId)).toEqual([
        { email: developer, preferredLanguage: null },
      ]);
      const id = freshValue("expiring");
      await stores.partners.insertPending({ ...registration(), id }, owner(companyId));
      const version = new Date((await stores.partners.findReviewStates([id])).get(id)!.version);
      await stores.partners.saveReview({ clientId: id, version }, { approved: true }, []);
      const { secretId } = (await stores.clientRegistry.insertSecret(id, () => ({
        value: "s",
        expiresAt: later(86_400, new Date()),
      })))!;
      const soon = await stores.partners.findSecretsExpiringSoon(new Date(), later(7 * 86_400, new Date()), 500);
      expect(soon.find((secret) => secret.id === secretId)).toMatchObject({
        client: { id, ownerCompanyId: companyId },
      });
      const mail = [
        { kind: "secret_expiring", recipient: developer, language: "en", subject: "Expiring", sealedBody: "x" },
      ];
      expect(await stores.partners.saveExpiryNotice(secretId, mail, new Date())).toBe(true);
      expect(await stores.partners.saveExpiryNotice(secretId, mail, new Date())).toBe(false);
      expect((await stores.outbox.list(500)).filter((message) => message.recipient === developer)).toHaveLength(1);
    });
  });
}
