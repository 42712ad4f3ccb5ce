import type { ReactNode } from "react";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { FORMS, PAGES } from "@/lib/http/paths";
import { pageUrl } from "@/lib/http/see-other";
import { pageClientAddress } from "@/lib/pages/page-address";
import { CSRF_FIELD, pageCsrfToken } from "@/lib/pages/page-csrf";
import { pageData } from "@/lib/pages/page-data";
import { single, type SearchParams } from "@/lib/pages/search-params";
import { deviceCodeEntry, deviceRequestView, type DeviceRequestView } from "@/lib/rights/device-approval";
import { ScopeChoices } from "@/app/_components/scope-choices";
import { Alert, buttonPrimary, buttonSecondary, Notice, SignInCard } from "@/app/_components/ui";

export const dynamic = "force-dynamic";

type DeviceText = Awaited<ReturnType<typeof getTranslations<"Device">>>;

const ERRORS = ["malformed", "wrong_code", "expired", "throttled", "form_expired"] as const;
type PageError = (typeof ERRORS)[number];

interface CodeFormProps {
  t: DeviceText;
  person: { name: string; email: string };
  code: string;
  error?: PageError;
  minutes: number;
}

/** Step one: the code the device shows (prefilled from verification_uri_complete), and one button. */
async function CodeForm({ t, person, code, error, minutes }: CodeFormProps) {
  const wrong = error === "malformed" || error === "wrong_code";
  return (
    <SignInCard title={t("title")} subtitle={t("signedInAs", person)}>
      {error ? <Alert>{t(`errors.${error}`, { minutes })}</Alert> : null}
      <form method="post" action={FORMS.device} className="space-y-4">
        <input type="hidden" name={CSRF_FIELD} value={await pageCsrfToken()} />
        <div>
          <label htmlFor="user_code" className="block text-sm font-medium text-slate-800">
            {t("code")}
          </label>
          <p id="user_code-hint" className="text-sm text-slate-600">
            {t("codeHint")}
          </p>
          <input
            id="user_code"
            name="user_code"
            defaultValue={code}
            required
            maxLength={20}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            autoFocus
            aria-describedby="user_code-hint"
            aria-invalid={wrong ? true : undefined}
            className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-lg uppercase tracking-widest text-slate-900 shadow-sm focus:border-brand-600"
          />
        </div>
        <button type="submit" className={buttonPrimary}>
          {t("continue")}
        </button>
      </form>
    </SignInCard>
  );
}

/** Which device asks: when, and from which network, compared with the browser's. */
async function DeviceFacts({ t, view }: { t: DeviceText; view: DeviceRequestView }) {
  const format = await getFormatter();
  const when = format.relativeTime(view.requestedAt, new Date());
  return (
    <dl className="mt-3 space-y-1 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700">
      <div>
        <dt className="inline font-medium text-slate-900">{t("requested")}:</dt> <dd className="inline">{when}</dd>
      </div>
      <div>
        <dt className="inline font-medium text-slate-900">{t("network")}:</dt>{" "}
        <dd className="inline">
          {view.network ? <span className="font-mono">{view.network}</span> : t("unknownNetwork")}
          {view.network ? ` (${t(view.sameNetwork ? "sameNetwork" : "otherNetwork")})` : null}
        </dd>
      </div>
    </dl>
  );
}

/** Step two: which application and device ask, for what; allow or deny, once. */
async function Confirmation({ t, ticket, view }: { t: DeviceText; ticket: string; view: DeviceRequestView }) {
  const consent = await getTranslations("Consent");
  return (
    <SignInCard title={t("confirmTitle")} subtitle={t("signedInAs", view.user)}>
      <p className="font-medium text-slate-900">{t("confirmIntro", { client: view.clientName })}</p>
      {view.clientDescription ? <p className="mt-1 text-sm text-slate-600">{view.clientDescription}</p> : null}
      <DeviceFacts t={t} view={view} />
      <p role="note" className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        {t("warning")}
      </p>
      <form method="post" action={FORMS.device} className="mt-5">
        <input type="hidden" name={CSRF_FIELD} value={await pageCsrfToken()} />
        <input type="hidden" name="request" value={ticket} />
        <ScopeChoices legend={t("confirmTitle")} requiredLabel={consent("required")} scopes={view.scopes} />
        <div className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-2">
          <button type="submit" name="decision" value="deny" className={buttonSecondary}>
            {consent("deny")}
          </button>
          <button type="submit" name="decision" value="allow" className={buttonPrimary}>
            {consent("allow")}
          </button>
        </div>
      </form>
    </SignInCard>
  );
}

function Done({ t, outcome }: { t: DeviceText; outcome: "approved" | "denied" }): ReactNode {
  return (
    <SignInCard title={t(`${outcome}.title`)}>
      <Notice>{t(`${outcome}.text`)}</Notice>
      <a href={PAGES.device} className="text-sm font-medium text-brand-700 underline underline-offset-2">
        {t("another")}
      </a>
    </SignInCard>
  );
}

/** /device (RFC 8628 verification_uri; CONTRACT §14): sign in, enter the device's code, then allow or deny it. */
export default async function DevicePage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const t = await getTranslations("Device");
  const done = single(query.done);
  if (done === "approved" || done === "denied") {
    await pageData(PAGES.device, deviceCodeEntry);
    return <Done t={t} outcome={done} />;
  }
  const ticket = single(query.request);
  const view = ticket
    ? await pageData(PAGES.device, async (actor) =>
        deviceRequestView(actor, ticket, await getLocale(), await pageClientAddress()),
      )
    : undefined;
  if (ticket && view) return <Confirmation t={t} ticket={ticket} view={view} />;
  const error = ticket ? "expired" : ERRORS.find((code) => code === single(query.error));
  const code = (single(query.user_code) ?? "").slice(0, 20);
  const person = await pageData(code ? pageUrl(PAGES.device, { user_code: code }) : PAGES.device, deviceCodeEntry);
  const minutes = Number(single(query.minutes) ?? 15);
  return <CodeForm t={t} person={person} code={code} error={error} minutes={minutes} />;
}
