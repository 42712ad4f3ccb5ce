import { PAGES, adminClientPage } from "@/lib/http/paths";
import { getLocale, getTranslations } from "next-intl/server";
import { listTrustedIssuers } from "@/lib/rights/operator-federation";
import { pageData } from "@/lib/pages/page-data";
import { DataTable, DataRow, DataCell, Identifier } from "@/app/_components/data-table";

export const dynamic = "force-dynamic";

export default async function AdminFederationPage() {
  const issuers = await pageData(PAGES.adminFederation, listTrustedIssuers);
  const [t, locale] = [await getTranslations("Admin"), await getLocale()];
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold text-brand-800">{t("federation")}</h1>
      <p className="max-w-3xl text-sm text-slate-600">
        {t.rich("federationHint", { code: (chunks) => <code className="font-mono text-slate-800">{chunks}</code> })}
      </p>
      {issuers.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
          {t("noIssuers")}
        </p>
      ) : (
        <div className="rounded-lg border border-slate-200 bg-white">
          <DataTable
            columns={[
              t("issuer"),
              t("issuerKeys"),
              t("issuerClients"),
              t("issuerSubjects"),
              t("issuerReach"),
              t("issuerChanged"),
            ]}
          >
            {issuers.map((issuer) => (
              <DataRow key={issuer.issuer} data-issuer={issuer.issuer}>
                <DataCell className="font-medium text-slate-900">
                  <Identifier value={issuer.issuer} />
                </DataCell>
                <DataCell label={t("issuerKeysLabel")}>
                  {issuer.jwksUri ? (
                    <Identifier value={issuer.jwksUri} />
                  ) : (
                    t("inlineKeys", { count: issuer.jwks?.keys.length ?? 0 })
                  )}
                </DataCell>
                <DataCell label={t("issuerClientsLabel")}>
                  {issuer.clientIds.map((clientId) => (
                    <a
                      key={clientId}
                      href={adminClientPage(clientId)}
                      className="mr-2 text-brand-700 underline underline-offset-2"
                    >
                      <Identifier value={clientId} />
                    </a>
                  ))}
                </DataCell>
                <DataCell label={t("issuerSubjectsLabel")}>
                  {issuer.subjectMapping === "email"
                    ? t("subjectByEmail")
                    : t("subjectByLink", { count: issuer.linkedSubjects })}
                </DataCell>
                <DataCell
                  className="break-words"
                  data-reach={issuer.reach ? "set" : "missing"}
                  label={t("issuerReachLabel")}
                >
                  {issuer.reach ? (
                    <>
                      {issuer.reach.companies.length > 0 && (
                        <div>{t("reachCompanies", { ids: issuer.reach.companies.join(", ") })}</div>
                      )}
                      {issuer.reach.emailDomains.length > 0 && (
                        <div>{t("reachEmailDomains", { domains: issuer.reach.emailDomains.join(", ") })}</div>
                      )}
                    </>
                  ) : (
                    <strong className="text-red-700">{t("reachMissing")}</strong>
                  )}
                </DataCell>
                <DataCell className="whitespace-nowrap" label={t("issuerChangedLabel")}>
                  {date.format(issuer.updatedAt)} UTC
                </DataCell>
              </DataRow>
            ))}
          </DataTable>
        </div>
      )}
    </section>
  );
}
