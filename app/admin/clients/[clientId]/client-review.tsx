/** A software vendor's application or change waiting for the operator: what was asked for, approve, reject with a reason. */
import { getTranslations } from "next-intl/server";
import type { ClientReviewState } from "@/lib/rights/operator-clients";
import { reviewStatus } from "@/app/admin/clients/clients-table";
import { ReviewForms } from "@/app/admin/clients/review-forms";

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
          <ReviewForms clientId={clientId} version={review.version} csrf={csrf} />
        </>
      ) : null}
    </section>
  );
}
