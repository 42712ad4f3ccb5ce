import { developerApplicationPage, PAGES } from "@/lib/http/paths";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { localizedText } from "@/lib/i18n/localized-text";
import { pageData } from "@/lib/pages/page-data";
import { decodedSegment } from "@/lib/pages/path-segments";
import { partnerQuickStart } from "@/lib/rights/partner-quick-start";
import { pageCsrfToken } from "@/lib/pages/page-csrf";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { developerTrialResult } from "@/lib/pages/shown-once";
import { TrialSection } from "../trial-section";
import { ApplicationFacts } from "./application-facts";
import { SnippetFileBlock } from "./snippet-file";

export const dynamic = "force-dynamic";

const section = "space-y-4 rounded-lg border border-slate-200 bg-white p-5";
const link = "text-brand-700 underline underline-offset-2";

/** Where to read on: the relying-party guide and the platform API's reference. */
async function FurtherReading() {
  const t = await getTranslations("QuickStart");
  return (
    <section aria-labelledby="reading-title" className={section}>
      <h2 id="reading-title" className="text-lg font-semibold text-slate-900">
        {t("readingTitle")}
      </h2>
      <ul className="list-disc space-y-1 pl-5 text-sm">
        <li>
          <a href={PAGES.relyingPartyGuide} className={link}>
            {t("guideLink")}
          </a>
        </li>
        <li>
          <a href={PAGES.apiDocs} className={link}>
            {t("apiLink")}
          </a>
        </li>
      </ul>
    </section>
  );
}

/**
 * The quick start of one of the vendor's applications: its sign-in facts, its settings as a `.env`, and the snippets
 * that fit its kind, filled in with them; the vendor's own applications only, any other id is not found.
 */
export default async function QuickStartPage({
  params,
  searchParams,
}: {
  params: Promise<{ client: string }>;
  searchParams: SearchParams;
}) {
  const clientId = decodedSegment((await params).client);
  const view =
    clientId === undefined
      ? undefined
      : await pageData(developerApplicationPage(clientId), (actor) => partnerQuickStart(actor, clientId));
  if (!view) notFound();
  const [t, locale] = [await getTranslations("QuickStart"), await getLocale()];
  const { client, guide } = view;
  const name = localizedText(client.names, locale, client.id);
  return (
    <div className="space-y-8" data-quick-start={client.id}>
      <a href={PAGES.developer} className={`text-sm ${link}`}>
        ← {t("back")}
      </a>
      <section className="space-y-3">
        <h1 className="break-words text-2xl font-semibold text-brand-800">{t("title", { client: name })}</h1>
        <p className="text-slate-700">{t("intro")}</p>
      </section>
      <ApplicationFacts view={view} />
      {view.status === "rejected" ? null : (
        <TrialSection
          clientId={client.id}
          sandbox={view.status === "pending"}
          csrf={await pageCsrfToken()}
          refusal={single((await searchParams).trial)}
          result={await developerTrialResult()}
        />
      )}
      <section aria-labelledby="env-title" className={section}>
        <h2 id="env-title" className="text-lg font-semibold text-slate-900">
          {t("envTitle")}
        </h2>
        <p className="text-sm text-slate-700">{t("envHint")}</p>
        <SnippetFileBlock file={guide.env} />
      </section>
      <section aria-labelledby="snippets-title" className={section}>
        <h2 id="snippets-title" className="text-lg font-semibold text-slate-900">
          {t("snippetsTitle")}
        </h2>
        {guide.notes.map((note) => (
          <p key={note} className="text-sm text-slate-700" data-note={note}>
            {t(`notes.${note}`)}
          </p>
        ))}
        {guide.snippets.length > 1 ? (
          <nav aria-label={t("snippetsNav")}>
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {guide.snippets.map((snippet) => (
                <li key={snippet.id}>
                  <a href={`#snippet-${snippet.id}`} className={link}>
                    {snippet.title}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {guide.snippets.map((snippet) => (
          <section
            key={snippet.id}
            id={`snippet-${snippet.id}`}
            aria-labelledby={`snippet-${snippet.id}-title`}
            data-snippet={snippet.id}
            className="space-y-3 border-t border-slate-200 pt-4"
          >
            <h3 id={`snippet-${snippet.id}-title`} className="font-semibold text-slate-900">
              {snippet.title}
            </h3>
            {snippet.files.map((file) => (
              <SnippetFileBlock key={file.name} file={file} of={snippet.title} />
            ))}
          </section>
        ))}
      </section>
      <FurtherReading />
    </div>
  );
}
