import { getTranslations } from "next-intl/server";
import { PAGES } from "@/lib/http/paths";
import { relyingPartyGuide } from "@/lib/pages/relying-party-guide";
import { docsMetadata, DocsHeader } from "../_parts/docs-header";

export const generateMetadata = () => docsMetadata("guideTitle");

/** The rendered markdown's elements, styled as the other pages' text: it comes as HTML, so the styles reach into it. */
const GUIDE_STYLE = [
  "max-w-3xl leading-relaxed text-slate-800 [overflow-wrap:anywhere]",
  "[&_h2]:mt-10 [&_h2]:mb-3 [&_h2]:border-b [&_h2]:border-slate-200 [&_h2]:pb-1 [&_h2]:text-xl [&_h2]:font-semibold",
  "[&_h2]:text-brand-800 [&_h3]:mt-8 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-brand-800",
  "[&_p]:my-3 [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-1",
  "[&_a]:rounded [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 [&_a:hover]:text-brand-800",
  "[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-[0.9em] [&_strong]:font-semibold",
  "[&_pre]:my-4 [&_pre]:rounded-md [&_pre]:bg-slate-900 [&_pre]:p-4 [&_pre]:text-sm [&_pre]:whitespace-pre-wrap",
  "[&_pre]:text-slate-100 [&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_table]:my-4 [&_table]:w-full [&_table]:border-collapse [&_table]:text-sm [&_td]:border [&_td]:border-slate-300",
  "[&_td]:px-2 [&_td]:py-1 [&_td]:align-top [&_th]:border [&_th]:border-slate-300 [&_th]:bg-slate-100 [&_th]:px-2",
  "[&_th]:py-1 [&_th]:text-left [&_th]:font-semibold",
].join(" ");

/** The guide for applications, from the repository's markdown (English), with a table of its sections. */
export default async function RelyingPartyGuidePage() {
  const [t, guide] = [await getTranslations("Docs"), await relyingPartyGuide()];
  return (
    <div className="space-y-8">
      <DocsHeader current={PAGES.relyingPartyGuide} title="guideTitle" intro={t("guideIntro")} />
      <nav aria-labelledby="guide-contents" className="max-w-3xl rounded-lg border border-slate-200 bg-white p-5">
        <h2 id="guide-contents" className="text-base font-semibold text-slate-900">
          {t("contents")}
        </h2>
        <ol lang="en" className="mt-2 list-decimal space-y-1 pl-6 text-sm">
          {guide.sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="rounded text-brand-700 underline underline-offset-2">
                {section.text}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <article lang="en" className={GUIDE_STYLE} dangerouslySetInnerHTML={{ __html: guide.html }} />
    </div>
  );
}
