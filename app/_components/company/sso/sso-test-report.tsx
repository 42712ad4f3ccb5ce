/**
 * The report of the connection test just made: what the provider said about the person who signed in there (never a
 * token), whether that person could sign in to OptiGate, or why the test failed.
 */
import { getTranslations } from "next-intl/server";
import type { CompanySsoTestReport, ShownIdentity } from "@/lib/forms/company-sso-outcome";

type Passed = Extract<CompanySsoTestReport, { ok: true }>;

function Claim({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <div className="sm:grid sm:grid-cols-3 sm:gap-4">
      <dt className="font-medium text-slate-700">{name}</dt>
      <dd className="break-words text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

async function ClaimList({ identity }: { identity: ShownIdentity }) {
  const t = await getTranslations("CompanySso.test");
  const none = <span className="text-slate-500">{t("none")}</span>;
  const groups = identity.groups?.length ? identity.groups.join(", ") : null;
  return (
    <dl className="space-y-2 text-sm" data-sso-test-claims>
      <Claim name={t("issuer")}>{identity.issuer}</Claim>
      <Claim name={t("subject")}>{identity.subject}</Claim>
      <Claim name={t("email")}>{identity.email ?? none}</Claim>
      <Claim name={t("emailVerified")}>{identity.emailVerified ? t("yes") : t("no")}</Claim>
      <Claim name={t("givenName")}>{identity.givenName ?? none}</Claim>
      <Claim name={t("familyName")}>{identity.familyName ?? none}</Claim>
      <Claim name={t("groups")}>
        {groups ?? none}
        {identity.moreGroups ? ` ${t("moreGroups", { count: identity.moreGroups })}` : null}
      </Claim>
      <Claim name={t("amr")}>{identity.amr?.length ? identity.amr.join(", ") : none}</Claim>
      <Claim name={t("acr")}>{identity.acr ?? none}</Claim>
    </dl>
  );
}

async function PassedTest({ report }: { report: Passed }) {
  const t = await getTranslations("CompanySso.test");
  const note = "rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900";
  return (
    <>
      <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
        {t("passed")}
      </p>
      {report.emailDomainVerified ? null : <p className={note}>{t("domainNotVerified")}</p>}
      {report.recorded ? null : <p className={note}>{t("notRecorded")}</p>}
      <ClaimList identity={report.identity} />
    </>
  );
}

export async function SsoTestReport({ report }: { report: CompanySsoTestReport }) {
  const t = await getTranslations("CompanySso.test");
  return (
    <section
      id="sso-test"
      aria-labelledby="sso-test-title"
      data-sso-test={report.ok ? "passed" : "failed"}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h3 id="sso-test-title" className="text-base font-semibold text-brand-800">
        {t("title")}
      </h3>
      {report.ok ? (
        <PassedTest report={report} />
      ) : (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          <p>{t(`failures.${report.failure}`, { error: report.upstreamError ?? "" })}</p>
          {report.reason ? (
            <p lang="en" className="mt-1 text-xs break-words text-slate-700">
              {report.reason}
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}
