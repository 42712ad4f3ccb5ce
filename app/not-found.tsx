import { getTranslations } from "next-intl/server";
import { NoticeCard } from "@/app/_components/ui";

export default async function NotFound() {
  const t = await getTranslations("NotFound");
  return <NoticeCard title={t("title")} text={t("text")} home={t("home")} />;
}
