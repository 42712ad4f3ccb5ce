/**
 * The client registry's contract: registering once per id (a person's id included), checks that refuse inside the
 * write, secrets stored as hashes and shown without them, their expiry and disabling, and removal with what hangs on.
 */
import { describe, expect, it } from "vitest";
import { hashToken } from "@/lib/crypto/tokens";
import { registration } from "./clients";
import { freshValue, newPerson, NOW, type StoreBackend } from "./store-backend";

const acceptAll = { checkCompany: async () => undefined };

export function clientRegistryContract(backend: StoreBackend): void {
  describe("client registry", () => {
    it("registers a client once with its first secret, asks its company check, and refuses a taken id", async () => {
      const { companyId } = backend.subjects();
      const { id: userId } = await newPerson(backend, "named");
      const stores = backend.stores();
      const id = freshValue("registered");
      const answers: boolean[] = [];
      const registered = await stores.clientRegistry.insert(
        id,
        registration(),
        {
          checkCompany: async (companyExists) => {
            answers.push(await companyExists(companyId), await companyExists("no-such-company"));
          },
          firstSecret: () => ({ value: "first-secret", description: "CI" }),
        },
        "operator-1",
      );
      expect(answers).toEqual([true, false]);
      expect(registered?.client).toMatchObject({ id, kind: "web" });
      expect(registered?.secret).toEqual({ secretId: expect.any(String), value: "first-secret" });
      expect((await stores.clients.find(id))?.secrets).toEqual([{ hash: hashToken("first-secret"), expiresAt: null }]);
      expect(await stores.clientRegistry.insert(id, registration(), acceptAll)).toBeNull();
      expect(await stores.clientRegistry.idTaken(userId)).toBe(true);
      expect(await stores.clientRegistry.idTaken(freshValue("free"))).toBe(false);
      const refused = freshValue("refused");
      const refusing = { checkCompany: async () => Promise.reject(new Error("no such company")) };
      await expect(stores.clientRegistry.insert(refused, registration(), refusing)).rejects.toThrow("no such company");
      expect(await stores.clientRegistry.exists(refused)).toBe(false);
    });

    it("adds, expires and disables secrets, showing them without their hashes", async () => {
      const stores = backend.stores();
      const id = freshValue("secrets");
      await stores.clientRegistry.insert(id, registration(), acceptAll);
      const added = await stores.clientRegistry.insertSecret(id, () => ({ value: "second-secret" }), "operator-1");
      expect(added).toEqual({ secretId: expect.any(String), value: "second-secret" });
      expect(await stores.clientRegistry.insertSecret(freshValue("none"), () => ({ value: "x" }))).toBeNull();
      const { secretId } = added!;
      expect(await stores.clientRegistry.setSecretExpiry(id, secretId, NOW)).toBe(true);
      expect(await stores.clientRegistry.setSecretExpiry(id, "no-such-secret", NOW)).toBe(false);
      const shown = await stores.clientRegistry.findWithSecrets(id);
      expect(shown?.secrets).toEqual([
        {
          id: secretId,
          description: null,
          createdAt: expect.any(Date),
          expiresAt: NOW,
          disabledAt: null,
          lastUsedAt: null,
        },
      ]);
      expect(await stores.clientRegistry.disableSecret(id, secretId)).toBe("disabled");
      expect(await stores.clientRegistry.disableSecret(id, secretId)).toBe("already_disabled");
      expect(await stores.clientRegistry.disableSecret(id, "no-such-secret")).toBe("no_secret");
      expect(await stores.clientRegistry.disableSecret(freshValue("none"), secretId)).toBe("no_client");
      expect((await stores.clients.find(id))?.secrets).toEqual([]);
    });

    it("replaces a registration after its check, lists clients, and removes one with its consents", async () => {
      const { id: userId } = await newPerson(backend, "consenting");
      const stores = backend.stores();
      const id = freshValue("replaced");
      await stores.clientRegistry.insert(id, registration(), acceptAll);
      const seen: string[] = [];
      const replaced = await stores.clientRegistry.replaceRegistration(
        id,
        registration({ names: { default: "Renamed" } }),
        async (_companyExists, existing) => void seen.push(existing.names.default),
      );
      expect(seen).toEqual(["Contract Shop"]);
      expect(replaced).toMatchObject({ id, names: { default: "Renamed" } });
      expect(
        await stores.clientRegistry.replaceRegistration(freshValue("none"), registration(), async () => undefined),
      ).toBeNull();
      expect((await stores.clientRegistry.list()).some((client) => client.id === id)).toBe(true);
      await stores.consents.save(userId, id, () => ["openid"], {}, NOW);
      expect(await stores.clientRegistry.remove(id, "operator-1", { reason: "contract" })).toBe(true);
      expect(await stores.clientRegistry.remove(id)).toBe(false);
      expect(await stores.clients.find(id)).toBeNull();
      expect(await stores.consents.findGrantedScopes(userId, id)).toBeNull();
    });
  });
}
