import { getTranslations } from "next-intl/server";

export default async function Forbidden() {
  const t = await getTranslations("Admin");
  return (
    <div className="mx-auto max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm" role="alert">
      <h1 className="text-xl font-semibold text-brand-800">{t("forbiddenTitle")}</h1>
      <p className="mt-2 text-slate-700">{t("forbiddenText")}</p>
      <a href="/" className="mt-4 inline-block text-sm font-medium text-brand-700 underline underline-offset-2">{t("home")}</a>
    </div>
  );
}
