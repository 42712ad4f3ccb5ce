import { getTranslations } from "next-intl/server";
import { NoticeCard } from "@/app/_components/ui";

export default async function Forbidden() {
  const t = await getTranslations("Admin");
  return <NoticeCard title={t("forbiddenTitle")} text={t("forbiddenText")} home={t("home")} />;
}
