/**
 * The operator's decision on a software vendor's application or change: approve, or reject with a reason the vendor
 * reads. Both post to the operator's form route (lib/forms/admin-submission.ts), which checks the rights; the client's
 * page shows them open, the client list in a row's actions, asking to come back to the list.
 */
import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { RETURN_TO_LIST } from "@/lib/forms/return-to-list";
import { buttonPrimary, buttonSecondary } from "@/app/_components/ui";

function DecisionFields(props: { clientId: string; version: string; csrf: string; inList: boolean }) {
  return (
    <>
      <input type="hidden" name={CSRF_FIELD} value={props.csrf} />
      <input type="hidden" name="client_id" value={props.clientId} />
      <input type="hidden" name="version" value={props.version} />
      {props.inList ? <input type="hidden" name={RETURN_TO_LIST.field} value={RETURN_TO_LIST.value} /> : null}
    </>
  );
}

export async function ReviewForms(props: { clientId: string; version: string; csrf: string; inList?: boolean }) {
  const t = await getTranslations("Admin");
  const fields = <DecisionFields {...props} inList={Boolean(props.inList)} />;
  // In the list every row has these forms: each names its client, and the reason field's id is the row's own.
  const named = (key: "approveNamed" | "rejectNamed") =>
    props.inList ? t(`review.${key}`, { client: props.clientId }) : undefined;
  const reasonId = props.inList ? `review-reason-${props.clientId}` : "review-reason";
  const approve = (
    <form method="post" action={FORMS.admin}>
      {fields}
      <button
        type="submit"
        name="action"
        value="approve"
        aria-label={named("approveNamed")}
        className={`${buttonPrimary} sm:w-auto`}
      >
        {t("review.approve")}
      </button>
    </form>
  );
  const reject = (
    <form method="post" action={FORMS.admin} className="flex-1 space-y-2">
      {fields}
      <label htmlFor={reasonId} className="block text-sm font-medium text-slate-800">
        {t("review.reason")}
      </label>
      <textarea
        id={reasonId}
        name="reason"
        required
        maxLength={1000}
        rows={2}
        className="block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900"
      />
      <button
        type="submit"
        name="action"
        value="reject"
        aria-label={named("rejectNamed")}
        className={`${buttonSecondary} sm:w-auto`}
      >
        {t("review.reject")}
      </button>
    </form>
  );
  if (!props.inList) {
    return (
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end">
        {approve}
        {reject}
      </div>
    );
  }
  return (
    <div className="flex w-full flex-col gap-2">
      {approve}
      <details className="text-sm">
        <summary className="cursor-pointer font-semibold text-brand-700 underline underline-offset-2">
          {t("review.rejectOpen")}
        </summary>
        <div className="mt-2">{reject}</div>
      </details>
    </div>
  );
}
