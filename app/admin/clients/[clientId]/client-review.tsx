/** A software vendor's application or change waiting for the operator: what was asked for, approve, reject with a reason. */
import { FORMS } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import type { ClientReviewState } from "@/lib/rights/operator-clients";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import { buttonPrimary, buttonSecondary } from "@/app/_components/ui";
import { reviewStatus } from "@/app/admin/clients/clients-table";

export async function ClientReview({
  clientId,
  review,
  asked,
  csrf,
}: {
  clientId: string;
  review: ClientReviewState;
  /** the metadata waiting for approval, as JSON text */
  asked: string;
  csrf: string;
}) {
  const t = await getTranslations("Admin");
  const status = reviewStatus(review);
  const owner = review.owner?.name ?? "—";
  const waiting = status === "pending" || status === "changeWaiting";
  return (
    <section
      aria-labelledby="review-title"
      data-review-status={status}
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-5"
    >
      <h2 id="review-title" className="text-lg font-semibold text-slate-900">
        {t("review.reviewTitle")} {t(`review.statuses.${status}`)}
      </h2>
      {review.reviewNote ? (
        <p className="text-sm text-slate-800">{t("review.rejectedBecause", { note: review.reviewNote })}</p>
      ) : null}
      {waiting ? (
        <>
          <p className="text-sm text-slate-800">
            {t(status === "pending" ? "review.reviewIntro" : "review.changeIntro", { owner })}
          </p>
          <details open>
            <summary className="cursor-pointer text-sm font-medium text-brand-700">{t("review.asked")}</summary>
            <pre
              tabIndex={0}
              aria-label={t("review.asked")}
              className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap break-all rounded-md bg-white p-3 text-xs text-slate-900"
            >
              {asked}
            </pre>
          </details>
          <div className="flex flex-col gap-4 sm:flex-row sm:items-end">
            <form method="post" action={FORMS.admin}>
              <input type="hidden" name={CSRF_FIELD} value={csrf} />
              <input type="hidden" name="client_id" value={clientId} />
              <input type="hidden" name="version" value={review.version} />
              <button type="submit" name="action" value="approve" className={`${buttonPrimary} sm:w-auto`}>
                {t("review.approve")}
              </button>
            </form>
            <form method="post" action={FORMS.admin} className="flex-1 space-y-2">
              <input type="hidden" name={CSRF_FIELD} value={csrf} />
              <input type="hidden" name="client_id" value={clientId} />
              <input type="hidden" name="version" value={review.version} />
              <label htmlFor="review-reason" className="block text-sm font-medium text-slate-800">
                {t("review.reason")}
              </label>
              <textarea
                id="review-reason"
                name="reason"
                required
                maxLength={1000}
                rows={2}
                className="block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900"
              />
              <button type="submit" name="action" value="reject" className={`${buttonSecondary} sm:w-auto`}>
                {t("review.reject")}
              </button>
            </form>
          </div>
        </>
      ) : null}
    </section>
  );
}
