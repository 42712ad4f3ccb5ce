import { ENDPOINTS, PAGES } from "@/lib/http/paths";
import { getTranslations } from "next-intl/server";
import { currentActor } from "@/lib/pages/current-actor";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { buttonPrimary } from "@/app/_components/ui";

function Card({ title, text, href, linkText }: { title: string; text: string; href?: string; linkText?: string }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <p className="mt-2 text-sm text-slate-700">{text}</p>
      {href && linkText ? (
        <a
          href={href}
          className="mt-3 inline-block rounded text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
        >
          {linkText}
        </a>
      ) : null}
    </section>
  );
}

export default async function HomePage({ searchParams }: { searchParams: SearchParams }) {
  const t = await getTranslations("Home");
  const signedOutEverywhere = single((await searchParams).signedOut) === "everywhere";
  const signedIn = (await currentActor()).kind === "user";
  return (
    <div className="space-y-8">
      {signedOutEverywhere ? (
        <p
          role="status"
          className="max-w-3xl rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900"
        >
          {t("signedOutEverywhere")}
        </p>
      ) : null}
      <div className="max-w-3xl">
        <h1 className="text-2xl font-semibold tracking-tight text-brand-800 sm:text-3xl">{t("heading")}</h1>
        <p className="mt-4 leading-relaxed text-slate-700">{t("intro")}</p>
        <a
          href={signedIn ? PAGES.home : `${PAGES.login}?${new URLSearchParams({ returnUrl: PAGES.home })}`}
          className={`${buttonPrimary} mt-6 sm:w-auto sm:px-6`}
        >
          {signedIn ? t("continueToPortal") : t("signIn")}
        </a>
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        <Card title={t("portalTitle")} text={t("portalText")} href={PAGES.portal} linkText={t("portalLink")} />
        <Card
          title={t("discoveryTitle")}
          text={t("discoveryText")}
          href={ENDPOINTS.discovery}
          linkText={t("discoveryLink")}
        />
        <Card title={t("catalogTitle")} text={t("catalogText")} />
      </div>
    </div>
  );
}
