import { getConfig } from "@/lib/config";
import { handleLanguageSwitch } from "@/lib/i18n/language-switch";

export const dynamic = "force-dynamic";

export const GET = (request: Request) => handleLanguageSwitch(request, getConfig().publicUrl);
