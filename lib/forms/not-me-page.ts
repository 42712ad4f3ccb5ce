/**
 * The "not me" page of a sign-in notice, written by its route handler (lib/forms/not-me-submission.ts) in the sign-in
 * pages' look (lib/http/standalone-page.ts), in the page's language: the sign-in the link tells of with the button that
 * ends every sign-in; what was done; or why the link cannot be used, with a 4xx status and the way to a new password.
 */
import { createTranslator } from "next-intl";
import { ENDPOINTS, PAGES } from "@/lib/http/paths";
import { escapeHtml } from "@/lib/http/html";
import { standalonePage } from "@/lib/http/standalone-page";
import { loadMessages, type Locale } from "@/lib/i18n/locales";
import type { ClosedNotMeLink } from "@/lib/rights/sign-in-notices";
import { CSRF_FIELD } from "@/lib/session/csrf";

/** What the page shows. */
export type NotMeView =
  | {
      kind: "open";
      email: string;
      signedInAt: Date;
      browser: string | null;
      ipAddress: string | null;
      csrf: string;
      formExpired?: boolean;
    }
  | { kind: "done"; reset: boolean }
  | { kind: "closed"; state: ClosedNotMeLink };

/** An unknown link is not found; a used or expired one is gone. */
const CLOSED_STATUS: Record<ClosedNotMeLink, number> = { unknown: 404, used: 410, expired: 410 };

type Translator = ReturnType<typeof createTranslator<Awaited<ReturnType<typeof loadMessages>>, "NotMe">>;

const paragraph = (text: string, attributes = "") => `<p${attributes}>${escapeHtml(text)}</p>`;

function openBody(t: Translator, language: Locale, view: Extract<NotMeView, { kind: "open" }>): string {
  const time = new Intl.DateTimeFormat(language, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });
  const unknown = t("unknown");
  const facts = [
    t("when", { when: time.format(view.signedInAt) }),
    t("browser", { browser: view.browser ?? unknown }),
    t("address", { address: view.ipAddress ?? unknown }),
  ];
  return [
    view.formExpired ? paragraph(t("formExpired"), ' class="alert" role="alert"') : "",
    paragraph(t("intro", { email: view.email })),
    `<ul class="facts">${facts.map((fact) => `<li>${escapeHtml(fact)}</li>`).join("")}</ul>`,
    paragraph(t("explain")),
    `<form method="post" action="${ENDPOINTS.notMe}">`,
    `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(view.csrf)}">`,
    `<input type="hidden" name="ui_locales" value="${language}">`,
    `<button type="submit" class="button">${escapeHtml(t("submit"))}</button></form>`,
    paragraph(t("wasMe"), ' class="sub" style="margin-top:16px"'),
  ].join("\n");
}

export async function notMePage(language: Locale, view: NotMeView, status = 200): Promise<Response> {
  const messages = await loadMessages(language);
  const t = createTranslator({ locale: language, messages, namespace: "NotMe" });
  const { serviceName, footer } = messages.Layout;
  const page = { lang: language, serviceName, footer };
  if (view.kind === "open")
    return standalonePage({ ...page, title: t("title"), body: openBody(t, language, view) }, status);
  if (view.kind === "done") {
    const body = [
      paragraph(t("done"), ' class="status" role="status"'),
      paragraph(t(view.reset ? "doneReset" : "doneSso")),
    ];
    return standalonePage({ ...page, title: t("doneTitle"), body: body.join("\n") }, status);
  }
  const forgot = `${PAGES.forgotPassword}?${new URLSearchParams({ ui_locales: language })}`;
  const body = [
    paragraph(t(`closed.${view.state}`)),
    `<a class="button secondary" href="${escapeHtml(forgot)}">${escapeHtml(t("forgotPassword"))}</a>`,
  ];
  return standalonePage(
    { ...page, title: t("closedTitle"), body: body.join("\n"), alert: true },
    CLOSED_STATUS[view.state],
  );
}
