/**
 * The company-SSO store's contract: a company's provider with its secret sealed (kept only for the settings it was
 * given for), its switches and test mark; the domains it claims, one company each (an unverified claim yielding to
 * another company's), at most MAX_DOMAINS_PER_COMPANY, verified only for the company and token that were checked; the
 * login page's question; and upstream accounts linked to users, for one company only. Every change is audited.
 */
import { describe, expect, it } from "vitest";
import { MAX_DOMAINS_PER_COMPANY } from "@/lib/config/policy";
import { acceptOlderSecretKeys, isSealedUnder } from "@/lib/crypto/secret-box";
import { openClientSecret } from "@/lib/store/company-sso-store";
import { STANDARD_CLAIMS, type CompanySsoWrite } from "@/lib/store/models/company-sso";
import { freshValue, later, newPerson, NOW, type StoreBackend } from "./store-backend";

const SETTINGS: CompanySsoWrite = {
  issuer: "https://login.microsoftonline.com/{tenantid}/v2.0",
  clientId: "0f1e2d3c-client",
  authMethod: "client_secret_post",
  scope: "openid email profile",
  claims: { ...STANDARD_CLAIMS, groups: "groups", roles: { "it-admins": "admin" } },
  hostedDomain: null,
  tenantId: "6f5e4d3c-2b1a-4098-8765-43210fedcba9",
  clientSecret: "first-secret",
};

async function newCompany(backend: StoreBackend, label: string): Promise<string> {
  const id = freshValue(label);
  await backend.stores().companies.insert(id, { name: "Optik SSO", kind: "eye_care_professional", webServices: [] });
  return id;
}

const eventsFor = async (backend: StoreBackend, type: string, companyId: string) =>
  (await backend.stores().audit.list({ type }, 200)).filter(
    (event) => JSON.parse(event.details).companyId === companyId,
  );

export function companySsoContract(backend: StoreBackend): void {
  describe("company SSO", () => {
    it("sets a company's provider with its secret sealed, keeps the secret when none is given, and removes it", async () => {
      const sso = backend.stores().companySso;
      const companyId = await newCompany(backend, "sso");
      const writer = { secretKey: backend.secretKey, byOperator: true, by: "operator-1" };
      expect(await sso.save(freshValue("missing"), SETTINGS, writer)).toBe("not_found");
      const saved = await sso.save(companyId, { ...SETTINGS, enabled: true }, writer, NOW);
      expect(saved).toEqual({
        ...SETTINGS,
        clientSecret: undefined,
        enabled: true,
        companyId,
        sealedClientSecret: expect.any(String),
        ssoOnly: false,
        registeredByOperator: true,
        testedAt: null,
        createdAt: NOW,
        updatedAt: NOW,
      });
      const found = (await sso.find(companyId))!;
      expect(found.sealedClientSecret).not.toContain("first-secret");
      expect(openClientSecret(found, backend.secretKey)).toBe("first-secret");
      expect(() => openClientSecret(found, "another-secret-key-0123456789abcdef")).toThrow();

      const { clientSecret: _kept, ...withoutSecret } = SETTINGS;
      const replaced = await sso.save(companyId, { ...withoutSecret, scope: "openid email" }, writer);
      expect(replaced).toMatchObject({ scope: "openid email", enabled: true, registeredByOperator: true });
      expect(openClientSecret((await sso.find(companyId))!, backend.secretKey)).toBe("first-secret");
      const events = await eventsFor(backend, "company.sso_set", companyId);
      expect(events.map((event) => JSON.parse(event.details))).toContainEqual(
        expect.objectContaining({ added: true, secretChanged: true, byOperator: true, enabled: true }),
      );
      expect(events.find((event) => JSON.parse(event.details).added)?.userId).toBe("operator-1");

      expect(await sso.remove(companyId)).toBe(true);
      expect(await sso.remove(companyId)).toBe(false);
      expect(await sso.find(companyId)).toBeNull();
      expect(await eventsFor(backend, "company.sso_removed", companyId)).toHaveLength(1);
    });

    it("keeps a stored secret only for the issuer, client and method it was given for, and an operator's for operators", async () => {
      const sso = backend.stores().companySso;
      const companyId = await newCompany(backend, "secret");
      const [operator, administrator] = [true, false].map((byOperator) => ({
        secretKey: backend.secretKey,
        byOperator,
      }));
      const { clientSecret: _given, ...kept } = SETTINGS;
      expect(await sso.save(companyId, kept, operator)).toBe("secret_needed");
      await sso.save(companyId, SETTINGS, operator, NOW);
      const stored = await sso.find(companyId);
      const elsewhere: Partial<CompanySsoWrite>[] = [
        { issuer: "https://idp.elsewhere.example" },
        { clientId: "another-client" },
        { authMethod: "client_secret_basic" },
      ];
      for (const changes of elsewhere)
        expect(await sso.save(companyId, { ...kept, ...changes }, operator), JSON.stringify(changes)).toBe(
          "secret_not_kept",
        );
      expect(await sso.save(companyId, kept, administrator)).toBe("secret_not_kept");
      expect(await sso.find(companyId)).toEqual(stored);
      expect(await eventsFor(backend, "company.sso_set", companyId)).toHaveLength(1);

      await sso.save(companyId, { ...SETTINGS, clientSecret: "own-secret" }, administrator);
      expect(await sso.save(companyId, { ...kept, scope: "openid" }, administrator)).toMatchObject({ scope: "openid" });
      expect(openClientSecret((await sso.find(companyId))!, backend.secretKey)).toBe("own-secret");
      const keyed = await sso.save(companyId, { ...kept, authMethod: "private_key_jwt" }, administrator);
      expect(keyed).toMatchObject({ authMethod: "private_key_jwt", sealedClientSecret: null });
      // The first secret, the administrator's own, and none for private_key_jwt; the scope's change kept it.
      const events = await eventsFor(backend, "company.sso_set", companyId);
      expect(events.map((event) => JSON.parse(event.details).secretChanged).sort()).toEqual([false, true, true, true]);
      expect(await sso.save(companyId, kept, administrator)).toBe("secret_needed");
    });

    it("turns the provider and SSO-only on and off, audited when they change, and marks tests of unchanged settings", async () => {
      const sso = backend.stores().companySso;
      const companyId = await newCompany(backend, "switches");
      expect(await sso.setEnabled(companyId, true)).toBe("not_found");
      const saved = await sso.save(companyId, SETTINGS, { secretKey: backend.secretKey, byOperator: false }, NOW);
      expect(saved).toMatchObject({ enabled: false, ssoOnly: false });
      expect(await sso.setEnabled(companyId, true, "admin-1")).toBe("changed");
      expect(await sso.setEnabled(companyId, true)).toBe("unchanged");
      expect(await sso.setSsoOnly(companyId, true)).toBe("changed");
      expect(await sso.find(companyId)).toMatchObject({ enabled: true, ssoOnly: true, updatedAt: NOW });
      expect(await sso.setEnabled(companyId, false)).toBe("changed");
      expect((await eventsFor(backend, "company.sso_enabled", companyId))[0].userId).toBe("admin-1");
      expect(await eventsFor(backend, "company.sso_disabled", companyId)).toHaveLength(1);
      expect(await eventsFor(backend, "company.sso_only_changed", companyId)).toHaveLength(1);

      expect(await sso.markTested(companyId, later(-1), undefined, later(60))).toBe(false);
      expect(await sso.markTested(companyId, NOW, undefined, later(60))).toBe(true);
      expect((await sso.find(companyId))?.testedAt).toEqual(later(60));
      // Settings written again: untested, and an earlier test no longer counts.
      await sso.save(companyId, SETTINGS, { secretKey: backend.secretKey, byOperator: false }, later(120));
      expect(await sso.find(companyId)).toMatchObject({ testedAt: null, enabled: false, ssoOnly: true });
      expect(await sso.markTested(companyId, NOW)).toBe(false);
    });

    it("gives a domain to one company, verifies it only with the company and token checked, and removes it", async () => {
      const sso = backend.stores().companySso;
      const [owner, other] = [await newCompany(backend, "owner"), await newCompany(backend, "other")];
      const domain = `${freshValue("d")}.example`;
      const claim = { domain, companyId: owner, verificationToken: "token-1", verifiedBy: null };
      expect(await sso.addDomain({ ...claim, companyId: freshValue("missing") })).toBe("not_found");
      const added = await sso.addDomain(claim, "admin-1", NOW);
      expect(added).toEqual({ ...claim, verifiedAt: null, createdAt: NOW });
      expect(await sso.addDomain(claim)).toEqual({ takenBy: owner });
      const second = { ...claim, domain: `a-${domain}`, verifiedBy: "operator" as const };
      expect(await sso.addDomain(second, undefined, NOW)).toMatchObject({ verifiedAt: NOW, verifiedBy: "operator" });
      expect((await sso.listDomains(owner)).map((row) => row.domain)).toEqual([second.domain, domain]);
      expect(await sso.listDomains(other)).toEqual([]);

      expect(await sso.verifyDomain({ ...claim, verificationToken: "token-2" }, "dns")).toBeNull();
      expect(await sso.verifyDomain({ ...claim, companyId: other }, "dns")).toBeNull();
      expect(await sso.findDomain(domain)).toMatchObject({ verifiedAt: null });
      const verified = await sso.verifyDomain(claim, "dns", "admin-1", later(5));
      expect(verified).toMatchObject({ domain, verifiedAt: later(5), verifiedBy: "dns" });
      expect(await sso.verifyDomain(claim, "operator", undefined, later(9))).toEqual(verified);
      expect(await eventsFor(backend, "company.domain_verified", owner)).toHaveLength(1);
      // Verified: another company's claim is refused.
      expect(await sso.addDomain({ ...claim, companyId: other, verificationToken: "token-2" })).toEqual({
        takenBy: owner,
      });

      expect(await sso.removeDomain(domain)).toMatchObject({ domain, companyId: owner });
      expect(await sso.removeDomain(domain)).toBeNull();
      expect(await sso.verifyDomain(claim, "dns")).toBeNull();
      expect(await sso.addDomain({ ...claim, companyId: other })).toMatchObject({ companyId: other });
      expect(await eventsFor(backend, "company.domain_added", owner)).toHaveLength(2);
      expect(await eventsFor(backend, "company.domain_removed", owner)).toHaveLength(1);
    });

    it("lets another company take over a domain claimed and never verified, audited for both; at most 20 a company", async () => {
      const sso = backend.stores().companySso;
      const [squatter, owner] = [await newCompany(backend, "squatter"), await newCompany(backend, "real-owner")];
      const domain = `${freshValue("victim")}.example`;
      const squatted = { domain, companyId: squatter, verificationToken: "squatter-token", verifiedBy: null };
      await sso.addDomain(squatted);
      const claim = { ...squatted, companyId: owner, verificationToken: "owner-token" };
      expect(await sso.addDomain(claim, "owner-admin", NOW)).toEqual({ ...claim, verifiedAt: null, createdAt: NOW });
      expect(await sso.listDomains(squatter)).toEqual([]);
      expect(await sso.verifyDomain(squatted, "dns")).toBeNull();
      const [removed] = await eventsFor(backend, "company.domain_removed", squatter);
      expect([removed.userId, JSON.parse(removed.details)]).toEqual([
        "owner-admin",
        { companyId: squatter, domain, takenOverBy: owner },
      ]);
      expect(await eventsFor(backend, "company.domain_added", owner)).toHaveLength(1);

      for (let n = 1; n < MAX_DOMAINS_PER_COMPANY; n++)
        await sso.addDomain({ ...claim, domain: `${n}.${domain}`, verificationToken: `t-${n}` });
      const wanted = { ...squatted, domain: `wanted.${domain}` };
      await sso.addDomain(wanted);
      for (const refused of [`more.${domain}`, wanted.domain])
        expect(await sso.addDomain({ ...claim, domain: refused }), refused).toBe("too_many_domains");
      expect(await sso.addDomain(claim)).toEqual({ takenBy: owner });
      expect(await sso.findDomain(wanted.domain)).toMatchObject({ companyId: squatter });
      expect(await sso.listDomains(owner)).toHaveLength(MAX_DOMAINS_PER_COMPANY);
    });

    it("routes an email domain to its company's provider only when the domain is verified and the provider on", async () => {
      const sso = backend.stores().companySso;
      const companyId = await newCompany(backend, "routed");
      const domain = `${freshValue("r")}.example`;
      await sso.addDomain({ domain, companyId, verificationToken: "t", verifiedBy: null });
      expect(await sso.ssoForEmailDomain(domain)).toBeNull();
      await sso.save(companyId, { ...SETTINGS, enabled: true }, { secretKey: backend.secretKey, byOperator: true });
      expect(await sso.ssoForEmailDomain(domain)).toBeNull();
      await sso.verifyDomain({ domain, companyId, verificationToken: "t" }, "operator");
      expect(await sso.ssoForEmailDomain(domain)).toEqual({ companyId, config: await sso.find(companyId) });
      await sso.setEnabled(companyId, false);
      expect(await sso.ssoForEmailDomain(domain)).toBeNull();
      expect(await sso.ssoForEmailDomain(`${freshValue("unknown")}.example`)).toBeNull();
    });

    it("names the providers turned on that may sign a back-channel logout token of an issuer", async () => {
      const sso = backend.stores().companySso;
      const issuer = `https://${freshValue("idp")}.example`;
      const [exact, template, off, elsewhere] = await Promise.all(
        ["exact", "template", "off", "elsewhere"].map((label) => newCompany(backend, label)),
      );
      const writer = { secretKey: backend.secretKey, byOperator: true };
      const settings = { ...SETTINGS, tenantId: null, enabled: true };
      await sso.save(exact, { ...settings, issuer }, writer);
      await sso.save(template, { ...SETTINGS, enabled: true }, writer);
      await sso.save(off, { ...settings, issuer, enabled: false }, writer);
      await sso.save(elsewhere, { ...settings, issuer: `${issuer}/other` }, writer);
      const ours = new Set([exact, template, off, elsewhere]);
      const found = (await sso.enabledForIssuer(issuer)).filter((each) => ours.has(each.companyId));
      expect(found.map((each) => each.companyId).sort()).toEqual([exact, template].sort());
      expect(found.find((each) => each.companyId === template)).toMatchObject({ issuer: SETTINGS.issuer });
    });

    it("links upstream accounts to users for one company, makes users just in time, and records sign-ins", async () => {
      const sso = backend.stores().companySso;
      const { companyId } = backend.subjects();
      const other = await newCompany(backend, "elsewhere");
      const person = await newPerson(backend, "linked");
      const identity = { issuer: "https://idp.contract.example", subject: freshValue("sub"), companyId };
      expect(await sso.findIdentity(identity)).toBeNull();
      expect(await sso.linkIdentity(identity, person.id, NOW)).toBe("linked");
      expect(await sso.linkIdentity(identity, person.id)).toBe("linked");
      expect(await sso.findIdentity(identity)).toEqual({ userId: person.id, lastSignInAt: NOW });
      expect(await sso.findIdentity({ ...identity, companyId: other })).toBeNull();
      expect(await sso.linkIdentity({ ...identity, companyId: other }, person.id)).toBe("taken");
      expect(await sso.touchIdentity(identity, later(30))).toBe(true);
      expect((await sso.findIdentity(identity))?.lastSignInAt).toEqual(later(30));
      expect(await sso.touchIdentity({ issuer: identity.issuer, subject: "nobody" })).toBe(false);

      const email = `${freshValue("jit")}@contract.example`;
      const newUser = { email, givenName: "Jo", familyName: "Muster", companyId, role: "user" };
      const fresh = { ...identity, subject: freshValue("jit") };
      const user = { ...newUser, emailVerified: true, passwordHash: "!sso" };
      expect(await sso.createUserWithIdentity(user, identity)).toBe("identity_taken");
      const made = await sso.createUserWithIdentity(user, fresh, NOW);
      expect(made).toEqual({ userId: await backend.stores().users.findIdByEmail(email) });
      expect(await sso.createUserWithIdentity(user, { ...fresh, subject: freshValue("again") })).toBe("email_taken");
      expect(await sso.linkIdentity(fresh, person.id)).toBe("taken");
      expect(await sso.findIdentity(fresh)).toEqual({ userId: (made as { userId: string }).userId, lastSignInAt: NOW });
      const events = await eventsFor(backend, "company.sso_identity_linked", companyId);
      expect(events.map((event) => JSON.parse(event.details).createdUser).sort()).toEqual([false, true]);
    });

    it("seals the client secret anew under the newest key", async () => {
      const sso = backend.stores().companySso;
      const companyId = await newCompany(backend, "resealed");
      const older = "contract-older-secret-key-0123456789abcdef";
      await sso.save(companyId, SETTINGS, { secretKey: older, byOperator: true });
      acceptOlderSecretKeys(backend.secretKey, [older]);
      try {
        expect((await backend.stores().maintenance.resealSecrets(backend.secretKey)).companySsoSecrets.resealed).toBe(
          1,
        );
        const found = (await sso.find(companyId))!;
        expect(isSealedUnder(found.sealedClientSecret!, backend.secretKey)).toBe(true);
        expect(openClientSecret(found, backend.secretKey)).toBe("first-secret");
      } finally {
        acceptOlderSecretKeys(backend.secretKey, []);
      }
    });
  });
}
