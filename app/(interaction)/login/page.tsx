import { cookies } from "next/headers";
import { getLocale, getTranslations } from "next-intl/server";
import { localizedText } from "@/lib/i18n/localized-text";
import { LOGIN_USERNAME_COOKIE } from "@/lib/interaction/login-submission";
import { pageCsrfToken, single, type SearchParams } from "@/lib/interaction/page-helpers";
import { authorizeParametersOf, safeLocalPath } from "@/lib/interaction/return-url";
import { findClient } from "@/lib/oauth/clients/client-store";
import { getServiceContext } from "@/lib/service-context";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { Alert, buttonPrimary, InteractionCard } from "../_components/interaction-card";

export const dynamic = "force-dynamic";

const ERRORS = ["invalid_credentials", "account_disabled", "throttled", "form_expired", "missing_fields"] as const;

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const context = getServiceContext();
  const [t, locale] = [await getTranslations("Login"), await getLocale()];
  const returnUrl = safeLocalPath(single(query.returnUrl)) ?? "/";
  const authorize = authorizeParametersOf(returnUrl);
  const clientId = authorize?.get("client_id");
  const client = clientId ? await findClient(context.db, clientId) : null;
  const error = ERRORS.find((code) => code === single(query.error));
  const username = (await cookies()).get(LOGIN_USERNAME_COOKIE)?.value ?? authorize?.get("login_hint") ?? "";

  return (
    <InteractionCard title={t("title")} subtitle={client ? t("continueTo", { client: localizedText(client.names, locale, client.id) }) : t("intro")}>
      {error ? <Alert>{t(`errors.${error}`, { minutes: Number(single(query.minutes) ?? 15) })}</Alert> : null}
      <form method="post" action="/interaction/login" className="space-y-4">
        <input type="hidden" name={CSRF_FIELD} value={await pageCsrfToken(context)} />
        <input type="hidden" name="returnUrl" value={returnUrl} />
        <div>
          <label htmlFor="username" className="block text-sm font-medium text-slate-800">{t("username")}</label>
          <input id="username" name="username" type="email" autoComplete="username" required defaultValue={username} autoFocus={!username}
            className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600" />
        </div>
        <div>
          <label htmlFor="password" className="block text-sm font-medium text-slate-800">{t("password")}</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required autoFocus={Boolean(username)}
            className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600" />
        </div>
        <button type="submit" className={buttonPrimary}>{t("submit")}</button>
      </form>
    </InteractionCard>
  );
}
