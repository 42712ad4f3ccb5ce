/** An optician's side of /portal/suppliers: their registrations (subscriptions, withdraw) and registering at a supplier. */
import { getTranslations } from "next-intl/server";
import type { SupplierListing } from "@/lib/rights/catalog-reads";
import type { RegistrationView } from "@/lib/rights/registrations";
import type { RefusedRegistrationForm } from "@/lib/forms/refused-registration-form";
import { isOpen, OpticianRegistrationCard } from "./optician-registration-card";
import type { Confirmation } from "./registration-parts";
import { SupplierSearch } from "./supplier-search";

export async function OpticianRegistrations(props: {
  registrations: RegistrationView[];
  directory: SupplierListing[];
  search: string;
  csrf: string;
  confirm?: Confirmation;
  refused?: RefusedRegistrationForm;
}) {
  const { registrations, directory, search, csrf, confirm, refused } = props;
  const t = await getTranslations("Suppliers");
  const catalogsOf = new Map(directory.map((supplier) => [supplier.supplierId, supplier.catalogs]));
  const openAt = new Set(registrations.filter(isOpen).map((registration) => registration.supplierId));

  return (
    <>
      <section className="space-y-4" aria-labelledby="registrations-heading">
        <h2 id="registrations-heading" className="text-lg font-semibold text-slate-900">
          {t("yourRegistrations")}
        </h2>
        {registrations.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
            {t("noRegistrations")}
          </p>
        ) : null}
        {registrations.map((registration) => (
          <OpticianRegistrationCard
            key={registration.id}
            registration={registration}
            catalogs={catalogsOf.get(registration.supplierId) ?? []}
            csrf={csrf}
            confirm={confirm}
          />
        ))}
      </section>
      <SupplierSearch
        directory={directory}
        search={search}
        openAt={openAt}
        csrf={csrf}
        refused={refused?.error === "invalid_client_id" ? refused : undefined}
      />
    </>
  );
}
