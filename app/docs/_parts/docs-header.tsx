import type { Metadata } from "next";
import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import { PAGES } from "@/lib/http/paths";

/** The developer documentation's pages, linked from each of them. */
const DOCS = [
  { href: PAGES.apiDocs, label: "platformApi" },
  { href: PAGES.manageDocs, label: "managementApi" },
  { href: PAGES.relyingPartyGuide, label: "guide" },
] as const;

export type DocsTitle = "apiTitle" | "manageTitle" | "guideTitle";

/** The browser's title of a documentation page: its own title, then the service's name. */
export async function docsMetadata(title: DocsTitle): Promise<Metadata> {
  const [t, layout] = [await getTranslations("Docs"), await getTranslations("Layout")];
  return { title: `${t(title)} – ${layout("serviceName")}` };
}

/** The links between the documentation's pages, the page's title and its intro line. */
export async function DocsHeader(props: { current: string; title: DocsTitle; intro: ReactNode }) {
  const t = await getTranslations("Docs");
  return (
    <div className="space-y-3">
      <nav aria-label={t("navigation")}>
        <ul className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
          {DOCS.map(({ href, label }) => (
            <li key={href}>
              <a
                href={href}
                aria-current={href === props.current ? "page" : undefined}
                className="rounded font-medium text-brand-700 underline-offset-2 hover:underline aria-[current=page]:text-slate-900 aria-[current=page]:no-underline"
              >
                {t(label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <h1 className="text-2xl font-semibold text-brand-800">{t(props.title)}</h1>
      <p className="max-w-3xl text-slate-700">{props.intro}</p>
    </div>
  );
}
