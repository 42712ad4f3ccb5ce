/**
 * The email domains whose people sign in at the company's provider: each verified, or waiting for the DNS record that
 * proves it (its name and value shown to copy) and verified by looking that record up; a domain given up; one added.
 */
import { FORMS } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import type { CompanyDomainJson } from "@/lib/admin/company-domains";
import type { CompanySsoOutcome } from "@/lib/forms/company-sso-outcome";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { CopyButton } from "@/app/_components/copy-button";
import { fieldAria, FieldError } from "@/app/_components/labelled-field";
import { Alert, buttonSecondary } from "@/app/_components/ui";
import { fieldInput } from "@/app/_components/company/invite-form";
import { smallButton } from "@/app/_components/company/people-table";
import { SsoActionButton } from "@/app/_components/company/sso/sso-action-button";
import { problemText } from "@/app/_components/company/sso/sso-problem";

async function DnsRecord({ record }: { record: NonNullable<CompanyDomainJson["dns_record"]> }) {
  const [t, copy] = [await getTranslations("CompanySso.domains"), await getTranslations("CompanySso.copy")];
  const copyTexts = { label: copy("label"), copied: copy("done"), failed: copy("failed") };
  const row = "space-y-1 sm:grid sm:grid-cols-4 sm:gap-3 sm:space-y-0";
  return (
    <div className="space-y-2 rounded-md bg-slate-50 p-3 text-sm text-slate-700">
      <p>{t("recordHint")}</p>
      <dl className="space-y-2">
        <div className={row}>
          <dt className="font-medium">{t("recordName")}</dt>
          <dd className="flex flex-wrap items-center gap-2 sm:col-span-3">
            <code className="break-all text-slate-900">{record.name}</code>
            <CopyButton text={record.name} name={copy("item", { item: t("recordName") })} {...copyTexts} />
          </dd>
        </div>
        <div className={row}>
          <dt className="font-medium">{t("recordType")}</dt>
          <dd className="sm:col-span-3">
            <code className="text-slate-900">{record.type}</code>
          </dd>
        </div>
        <div className={row}>
          <dt className="font-medium">{t("recordValue")}</dt>
          <dd className="flex flex-wrap items-center gap-2 sm:col-span-3">
            <code className="break-all text-slate-900" data-dns-value>
              {record.value}
            </code>
            <CopyButton text={record.value} name={copy("item", { item: t("recordValue") })} {...copyTexts} />
          </dd>
        </div>
      </dl>
    </div>
  );
}

async function DomainItem({ domain, csrf }: { domain: CompanyDomainJson; csrf: string }) {
  const [t, format] = [await getTranslations("CompanySso.domains"), await getFormatter()];
  const date = domain.verified_at && format.dateTime(new Date(domain.verified_at), { dateStyle: "medium" });
  const pill = domain.verified
    ? "bg-green-50 text-green-900 ring-green-200"
    : "bg-amber-50 text-amber-900 ring-amber-200";
  return (
    <li data-domain={domain.domain} data-verified={domain.verified} className="space-y-2 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium break-all text-slate-900">{domain.domain}</span>
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${pill}`}>
          {domain.verified ? t("verified") : t("unverified")}
        </span>
        {date ? (
          <span className="text-xs text-slate-600">
            {domain.verified_by === "operator" ? t("verifiedByOperator", { date }) : t("verifiedByDns", { date })}
          </span>
        ) : null}
      </div>
      {domain.dns_record ? <DnsRecord record={domain.dns_record} /> : null}
      <div className="flex flex-wrap items-start gap-2">
        {domain.verified ? null : (
          <SsoActionButton action="domain-verify" domain={domain.domain} csrf={csrf} className={smallButton}>
            {t("verify")}
          </SsoActionButton>
        )}
        <details className="text-xs">
          <summary className="cursor-pointer py-1 font-semibold text-red-800">{t("remove")}</summary>
          <SsoActionButton
            action="domain-remove"
            domain={domain.domain}
            csrf={csrf}
            className="mt-1 rounded-md bg-red-700 px-2.5 py-1 text-xs font-semibold text-white hover:bg-red-800"
          >
            {t("confirmRemove", { domain: domain.domain })}
          </SsoActionButton>
        </details>
      </div>
    </li>
  );
}

export async function SsoDomains({
  domains,
  csrf,
  outcome,
}: {
  domains: CompanyDomainJson[];
  csrf: string;
  outcome?: CompanySsoOutcome;
}) {
  const t = await getTranslations("CompanySso.domains");
  const refused = outcome?.problem && outcome.action.startsWith("domain-") ? outcome : undefined;
  // The add form's own refusals go to its field; those of a domain's buttons above the list.
  const atField = refused?.action === "domain-add" && refused.field === "domain";
  const problem = refused ? await problemText(refused) : null;
  return (
    <section
      id="sso-domains"
      aria-labelledby="sso-domains-title"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-5"
    >
      <h3 id="sso-domains-title" className="text-base font-semibold text-brand-800">
        {t("title")}
      </h3>
      <p className="text-sm text-slate-600">{t("intro")}</p>
      {problem && !atField ? <Alert>{problem}</Alert> : null}
      {domains.length > 0 ? (
        <ul className="divide-y divide-slate-200">
          {domains.map((domain) => (
            <DomainItem key={domain.domain} domain={domain} csrf={csrf} />
          ))}
        </ul>
      ) : (
        <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600">{t("none")}</p>
      )}
      <form method="post" action={FORMS.companySso} className="space-y-2 border-t border-slate-200 pt-3">
        <input type="hidden" name={CSRF_FIELD} value={csrf} />
        <input type="hidden" name="action" value="domain-add" />
        <label htmlFor="sso-domain" className="block text-sm font-medium text-slate-800">
          {t("add")}
        </label>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <input
            id="sso-domain"
            name="domain"
            type="text"
            required
            maxLength={253}
            placeholder="example.com"
            autoComplete="off"
            spellCheck={false}
            defaultValue={atField ? refused?.domain : undefined}
            className={`${fieldInput} sm:mt-0`}
            {...fieldAria("sso-domain", false, atField ? problem : null)}
          />
          <button type="submit" className={`${buttonSecondary} sm:w-auto sm:shrink-0`}>
            {t("addButton")}
          </button>
        </div>
        <FieldError id="sso-domain" error={atField ? problem : null} />
      </form>
    </section>
  );
}
