import { PAGES } from "@/lib/http/paths";
import { getFormatter, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { outboxFor } from "@/lib/rights/operator-outbox";
import { pageData } from "@/lib/pages/page-data";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { refusedAdminForm } from "@/lib/pages/shown-once";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { DataTable, DataRow, DataCell } from "@/app/_components/data-table";
import { Alert } from "@/app/_components/ui";
import { problemPlaces } from "@/app/admin/_parts/problem-text";
import { RetryForm, TestMailForm } from "./outbox-forms";

export const dynamic = "force-dynamic";

/** The message's text with its web addresses as links, so that an invitation can be followed from here. */
function linkedText(text: string): ReactNode[] {
  return text.split(/(https?:\/\/\S+)/).map((part, index) =>
    index % 2 === 1 ? (
      <a key={index} href={part} className="break-all text-brand-700 underline">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

/** What the last form of the page did: a message queued again, or a test mail queued. */
function doneKey(query: Record<string, string | string[] | undefined>): "retried" | "testQueued" | undefined {
  if (single(query.retried)) return "retried";
  return single(query.testQueued) ? "testQueued" : undefined;
}

export default async function AdminOutboxPage({ searchParams }: { searchParams: SearchParams }) {
  const outbox = await pageData(PAGES.adminOutbox, outboxFor);
  const [t, format] = [await getTranslations("AdminOutbox"), await getFormatter()];
  const when = (date: Date) => format.dateTime(date, { dateStyle: "medium", timeStyle: "short" });
  const csrf = await pageCsrfToken();
  const refused = await refusedAdminForm();
  // The cookie of the admin forms is shared: only the outbox's own refusals are shown here.
  const places = await problemPlaces(refused?.action.startsWith("outbox-") ? refused.problem : undefined);
  const done = doneKey(await searchParams);
  const { catcherUrl } = outbox;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold text-brand-800">{t("title")}</h1>
      <p className="text-slate-700">{t("intro")}</p>
      <p
        role="status"
        className={`rounded-md border px-3 py-2 text-sm ${outbox.sending ? "border-green-200 bg-green-50 text-green-900" : "border-amber-200 bg-amber-50 text-amber-900"}`}
      >
        {outbox.sending ? t("sending") : t("notSending")} {t("counts", outbox.counts)}
      </p>
      {catcherUrl ? (
        <p className="text-slate-700">
          {t.rich("catcher", {
            link: (chunks) => (
              <a href={catcherUrl} className="text-brand-700 underline" data-mail-catcher>
                {chunks}
              </a>
            ),
          })}
        </p>
      ) : null}
      {places.general ? <Alert>{places.general}</Alert> : null}
      {done ? (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          {t(done)}
        </p>
      ) : null}
      <TestMailForm
        csrf={csrf}
        typed={refused?.action === "outbox-test-mail" ? refused.problem.value : undefined}
        errorAt={places.at}
      />
      {outbox.messages.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">{t("empty")}</p>
      ) : (
        <div className="rounded-lg border border-slate-200 bg-white">
          <DataTable columns={[t("recipient"), t("subject"), t("status"), t("created")]}>
            {outbox.messages.map((message) => (
              <DataRow key={message.id} data-recipient={message.recipient}>
                <DataCell className="break-words sm:min-w-48">{message.recipient}</DataCell>
                <DataCell label={t("subjectLabel")}>
                  {message.subject || t("deferred")}
                  {message.text ? (
                    <details className="mt-1">
                      <summary className="cursor-pointer text-brand-700 underline">{t("read")}</summary>
                      <pre
                        lang={message.language}
                        className="mt-2 whitespace-pre-wrap rounded-md bg-slate-50 p-3 font-sans text-sm text-slate-900"
                      >
                        {linkedText(message.text)}
                      </pre>
                    </details>
                  ) : message.status === "sent" ? (
                    <span className="block text-xs text-slate-600">{t("erased")}</span>
                  ) : message.status === "failed" ? (
                    <span className="block text-xs text-slate-600">{t("failedErased")}</span>
                  ) : null}
                </DataCell>
                <DataCell label={t("statusLabel")}>
                  {t(`statuses.${message.status}`)}
                  {message.attempts > 0 ? (
                    <span className="block text-xs text-slate-600">
                      {t("attempts")} {message.attempts}
                    </span>
                  ) : null}
                  {message.lastError ? (
                    <span className="block break-all text-xs text-red-800">
                      {t("lastError")} {message.lastError}
                    </span>
                  ) : null}
                  {message.resendable ? (
                    <>
                      <span className="block text-xs text-slate-600">{t("kept")}</span>
                      <RetryForm csrf={csrf} messageId={message.id} />
                    </>
                  ) : null}
                </DataCell>
                <DataCell label={t("createdLabel")}>{when(message.createdAt)}</DataCell>
              </DataRow>
            ))}
          </DataTable>
        </div>
      )}
    </div>
  );
}
