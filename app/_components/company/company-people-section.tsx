import { SecondFactorRule } from "./second-factor-rule";
import { SignInNoticeRule } from "./sign-in-notice-rule";
import { getTranslations } from "next-intl/server";
import type { CompanyPeopleView } from "@/lib/rights/company-people";
import type { CompanyFormOutcome } from "@/lib/forms/company-submission";
import { InviteForm } from "@/app/_components/company/invite-form";
import { PeopleTable } from "@/app/_components/company/people-table";

/** A company's people page body, shared by its administrators' page and the operator's company page. */
export async function CompanyPeopleSection({
  view,
  outcome,
  csrf,
  operator,
}: {
  view: CompanyPeopleView;
  outcome?: CompanyFormOutcome;
  csrf: string;
  /** the operator's page names the company in every form */
  operator?: boolean;
}) {
  const t = await getTranslations("CompanyPeople");
  const companyId = operator ? view.company.id : undefined;
  const done = outcome && !outcome.problem ? outcome : undefined;
  return (
    <section id="people" className="space-y-4">
      {done ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {t(`done.${done.action}` as "done.invite", { email: done.email })}
        </p>
      ) : null}
      <SecondFactorRule company={view.company} companyId={companyId} csrf={csrf} />
      <SignInNoticeRule company={view.company} companyId={companyId} csrf={csrf} />
      <InviteForm
        companyId={companyId}
        companyKind={view.company.kind}
        csrf={csrf}
        refused={outcome?.problem ? outcome : undefined}
      />
      <h2 className="text-lg font-semibold text-brand-800">{t("peopleTitle")}</h2>
      <PeopleTable
        people={view.people}
        companyKind={view.company.kind}
        self={view.self}
        csrf={csrf}
        companyId={companyId}
      />
    </section>
  );
}
