import { PAGES, adminClientPage } from "@/lib/http/paths";
import { getLocale, getTranslations } from "next-intl/server";
import { listTrustedIssuers } from "@/lib/rights/operator-federation";
import { pageData } from "@/lib/pages/page-data";
import { stacked } from "@/app/_components/stacked-table";

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
          <table className={stacked.table}>
            <thead className={stacked.head}>
              <tr>
                <th className={stacked.th}>{t("issuer")}</th>
                <th className={stacked.th}>{t("issuerKeys")}</th>
                <th className={stacked.th}>{t("issuerClients")}</th>
                <th className={stacked.th}>{t("issuerSubjects")}</th>
                <th className={stacked.th}>{t("issuerReach")}</th>
                <th className={stacked.th}>{t("issuerChanged")}</th>
              </tr>
            </thead>
            <tbody className={stacked.body}>
              {issuers.map((issuer) => (
                <tr key={issuer.issuer} data-issuer={issuer.issuer} className={stacked.row}>
                  <td className={`${stacked.cell} break-all font-medium text-slate-900`}>{issuer.issuer}</td>
                  <td className={`${stacked.cell} break-all`}>
                    <span className={stacked.label}>{t("issuerKeysLabel")}</span>
                    {issuer.jwksUri ?? t("inlineKeys", { count: issuer.jwks?.keys.length ?? 0 })}
                  </td>
                  <td className={stacked.cell}>
                    <span className={stacked.label}>{t("issuerClientsLabel")}</span>
                    {issuer.clientIds.map((clientId) => (
                      <a
                        key={clientId}
                        href={adminClientPage(clientId)}
                        className="mr-2 text-brand-700 underline underline-offset-2"
                      >
                        {clientId}
                      </a>
                    ))}
                  </td>
                  <td className={stacked.cell}>
                    <span className={stacked.label}>{t("issuerSubjectsLabel")}</span>
                    {issuer.subjectMapping === "email"
                      ? t("subjectByEmail")
                      : t("subjectByLink", { count: issuer.linkedSubjects })}
                  </td>
                  <td className={`${stacked.cell} break-all`} data-reach={issuer.reach ? "set" : "missing"}>
                    <span className={stacked.label}>{t("issuerReachLabel")}</span>
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
                  </td>
                  <td className={`${stacked.cell} whitespace-nowrap`}>
                    <span className={stacked.label}>{t("issuerChangedLabel")}</span>
                    {date.format(issuer.updatedAt)} UTC
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
