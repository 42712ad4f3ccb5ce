/**
 * The partner store's contract: initial access tokens for active vendors, vendors' applications pending until the
 * operator decides on the version they saw, changes of approved ones waiting beside them, and expiry notices once.
 */
import { describe, expect, it } from "vitest";
import { forgetClient } from "@/lib/store/client-store";
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
    it("shows a pending application as its vendor's sandbox while the vendor allows one, never a rejected one", async () => {
      const stores = backend.stores();
      const companyId = await vendor(backend);
      const id = freshValue("sandboxed");
      const origin = `https://${id}.example`;
      const browserApp = registration({
        kind: "browser",
        tokenEndpointAuthMethod: "none",
        corsOrigins: [origin],
        allowedScopes: ["openid", "profile", "email", "offline_access", "platform.catalogs.read"],
      });
      const registered = await stores.partners.insertPending({ ...browserApp, id }, owner(companyId));
      if (typeof registered === "string") throw new Error(`not stored: ${registered}`);
      forgetClient();
      expect(await stores.clients.find(id)).toMatchObject({
        sandbox: true,
        allowedScopes: ["openid", "profile", "email"],
        grantTypes: ["authorization_code"],
        offlineAccess: false,
        ownerCompanyId: companyId,
      });
      expect((await stores.clients.corsOrigins(Date.now() + 3_600_000)).has(origin)).toBe(true);
      expect(await stores.partners.savePartnerSandbox(companyId, false)).toBe(true);
      expect(await stores.partners.findPartner(companyId)).toMatchObject({ sandbox: false });
      forgetClient();
      expect(await stores.clients.find(id)).toBeNull();
      expect((await stores.clients.corsOrigins(Date.now() + 7_200_000)).has(origin)).toBe(false);
      expect(await stores.partners.savePartnerSandbox(backend.subjects().companyId, false)).toBe(false);
    });

    it("finds an active vendor by a current initial access token only, with what it may ask for", async () => {
      const stores = backend.stores();
      const companyId = await vendor(backend);
      const resources = ["https://api.praxis.example/v1"];
      expect(await stores.partners.savePartnerAllowance(companyId, "partnerResources", resources)).toBe(true);
      const tokenHash = freshValue("iat");
      const id = await stores.partners.saveInitialAccessToken({ companyId, tokenHash, expiresAt: later(3600) });
      const allowance = {
        id: companyId,
        partnerScopes: ["platform.catalogs.read"],
        partnerResources: resources,
        sandbox: true,
      };
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
      const registered = await stores.partners.insertPending({ ...registration(), id }, rights);
      if (typeof registered === "string") throw new Error(`not stored: ${registered}`);
      const pending = registered.application;
      expect(pending).toMatchObject({ id, status: "pending", ownerCompanyId: companyId, pendingMetadata: null });
      expect(registered.secret).toBeUndefined();
      expect(await stores.clients.find(id)).toMatchObject({ id, sandbox: true });
      expect(await stores.partners.insertPending({ ...registration(), id: freshValue("more") }, rights)).toBe(
        "too_many",
      );
      expect(await stores.partners.insertPending({ ...registration(), id }, owner(companyId))).toBe("taken");
      expect((await stores.partners.findByRegistrationToken(rights.registrationTokenHash))?.id).toBe(id);
      expect((await stores.partners.list(companyId)).map((app) => app.id)).toEqual([id]);
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

    it("stores a pending application with its first secret, and tells how many of its secrets are usable", async () => {
      const stores = backend.stores();
      const companyId = await vendor(backend);
      const id = freshValue("confidential");
      const firstSecret = { value: freshValue("first-secret"), expiresAt: later(86_400, new Date()) };
      const registered = await stores.partners.insertPending(
        { ...registration(), id },
        owner(companyId),
        "dev-1",
        firstSecret,
      );
      if (typeof registered === "string") throw new Error(`not stored: ${registered}`);
      expect(registered.secret).toEqual({ secretId: expect.any(String), value: firstSecret.value });
      expect((await stores.clientRegistry.findWithSecrets(id))?.secrets).toEqual([
        expect.objectContaining({
          id: registered.secret!.secretId,
          expiresAt: firstSecret.expiresAt,
          disabledAt: null,
        }),
      ]);
      const usable: number[] = [];
      const counting = (value: string) => (_client: unknown, count: number) => (usable.push(count), { value });
      const second = (await stores.clientRegistry.insertSecret(id, counting(freshValue("second"))))!;
      await stores.clientRegistry.disableSecret(id, registered.secret!.secretId);
      expect(await stores.clientRegistry.setSecretExpiry(id, second.secretId, new Date(Date.now() - 1000))).toBe(true);
      await stores.clientRegistry.insertSecret(id, counting(freshValue("third")));
      // The first alone was usable, then none: one disabled, one expired.
      expect(usable).toEqual([1, 0]);
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
