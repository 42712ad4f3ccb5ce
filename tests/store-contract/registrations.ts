/**
 * The registration store's contract: one open registration per optician and supplier, requested after its checks,
 * changed on the version it was read at, and read as the catalog services and the platform API's callers see it.
 */
import { describe, expect, it } from "vitest";
import type { RequestLookups } from "@/lib/store/registration-store";
import { newSupplier, releasedCatalog } from "./catalogs";
import { freshValue, type StoreBackend } from "./store-backend";

async function optician(backend: StoreBackend) {
  const id = freshValue("optician");
  await backend
    .stores()
    .companies.insert(id, { name: "Optik Vertrag", kind: "eye_care_professional", webServices: [] });
  return id;
}

export function registrationContract(backend: StoreBackend): void {
  describe("registrations", () => {
    it("requests a registration after its checks, once per pair while it is open", async () => {
      const stores = backend.stores();
      const supplier = await newSupplier(backend);
      const catalog = await releasedCatalog(backend, supplier);
      const opticianId = await optician(backend);
      const answers: unknown[] = [];
      const prepare = async (lookups: RequestLookups) => {
        const found = (await lookups.findSupplier(supplier.supplierId))!;
        answers.push(found, await lookups.findSupplier("NO-SUCH-SUPPLIER"));
        const catalogs = await lookups.findPublishedCatalogIds(found.id, [catalog.catalogId, "NONE"]);
        const pair = { opticianCompanyId: opticianId, supplierCompanyId: found.id };
        answers.push(catalogs, await lookups.hasRegistration(pair, true));
        return { ...pair, clientId: "4711", catalogKeys: [...catalogs.values()], changedBy: "user-1" };
      };
      const requested = await stores.registrations.saveRequested(prepare, (row) => ({
        type: "registration.requested",
        details: { registrationId: row.id },
      }));
      expect(answers).toEqual([
        { id: supplier.id, name: "Contract Lenses" },
        null,
        new Map([[catalog.catalogId, catalog.key]]),
        false,
      ]);
      expect(requested).toMatchObject({
        status: "requested",
        clientId: "4711",
        customerGroups: [],
        version: 1,
        optician: { id: opticianId },
        subscriptions: [{ status: "Subscribed", catalog: { catalogId: catalog.catalogId } }],
      });
      const pair = { opticianCompanyId: opticianId, supplierCompanyId: supplier.id };
      expect(await stores.registrations.has(pair, true)).toBe(true);
      expect(await stores.registrations.saveRequested(prepare, () => ({ type: "registration.requested" }))).toBeNull();
      expect(
        (await stores.registrations.list({ opticianCompanyId: opticianId }, { limit: 10 })).map((r) => r.id),
      ).toEqual([requested!.id]);
      expect(await stores.registrations.find({ supplierCompanyId: supplier.id }, requested!.id)).not.toBeNull();
      expect(await stores.registrations.find({ supplierCompanyId: opticianId }, requested!.id)).toBeNull();
    });

    it("activates a registration on its version, and the platform API's callers see it", async () => {
      const stores = backend.stores();
      const supplier = await newSupplier(backend);
      const catalog = await releasedCatalog(backend, supplier);
      const opticianId = await optician(backend);
      const pair = { opticianCompanyId: opticianId, supplierCompanyId: supplier.id };
      const requested = (await stores.registrations.saveRequested(
        async () => ({ ...pair, clientId: "0815", catalogKeys: [], changedBy: "user-1" }),
        () => ({ type: "registration.requested" }),
      ))!;
      const activated = await stores.registrations.saveChange({ supplierCompanyId: supplier.id }, requested.id, {
        decide: (row) => {
          expect(row.version).toBe(1);
          const subscriptions = [{ catalogId: catalog.catalogId, status: "Subscribed" }];
          return {
            status: "active",
            open: true,
            customerGroups: [5],
            subscriptions,
            changedBy: "supplier-1",
            audit: { type: "registration.changed" },
          };
        },
        catalogsOf: (lookups, supplierCompanyId, ids) => lookups.findPublishedCatalogIds(supplierCompanyId, ids),
      });
      expect(activated).toMatchObject({ status: "active", version: 2, customerGroups: [5] });
      expect(
        await stores.registrations.saveChange({ opticianCompanyId: "elsewhere" }, requested.id, {
          decide: () => {
            throw new Error("not reached");
          },
          catalogsOf: async () => new Map(),
        }),
      ).toBe("not_found");
      expect(await stores.registrations.findActive(opticianId, supplier.id)).toMatchObject({
        clientId: "0815",
        customerGroups: [5],
        subscriptions: [{ catalogId: catalog.key, status: "Subscribed" }],
        whiteLabelNames: [],
      });
      const active = [
        {
          registrationId: requested.id,
          supplierCompanyId: supplier.id,
          clientId: "0815",
          customerGroups: [5],
          subscriptions: [{ catalogId: catalog.key, status: "Subscribed" }],
        },
      ];
      expect(await stores.registrations.listActive(opticianId)).toEqual(active);
      expect(await stores.apiCallers.ofCompany(opticianId)).toEqual({
        company: {
          id: opticianId,
          name: "Optik Vertrag",
          kind: "eye_care_professional",
          supplierId: null,
          requireSecondFactor: false,
        },
        registrations: active,
      });
      const email = `${freshValue("staff")}@contract.example`;
      await stores.users.save({
        email,
        companyId: opticianId,
        givenName: "A",
        familyName: "B",
        role: "user",
        emailVerified: true,
        passwordHash: "x",
      });
      const userId = (await stores.users.findIdByEmail(email))!;
      expect((await stores.apiCallers.ofUser(userId))?.registrations).toEqual(active);
      await stores.people.deactivate(email, { byOperator: true });
      expect(await stores.apiCallers.ofUser(userId)).toBeUndefined();
    });
  });
}
