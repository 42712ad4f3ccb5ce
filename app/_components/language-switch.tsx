"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { LANGUAGE_NAMES, LOCALES } from "@/lib/i18n/locales";

/** Links to /language for each other language, returning to this very page (query included). */
export function LanguageSwitch({ current, label }: { current: string; label: string }) {
  const pathname = usePathname();
  const query = useSearchParams().toString();
  const returnTo = query ? `${pathname}?${query}` : pathname;
  return (
    <nav aria-label={label} className="flex items-center gap-1 text-sm">
      {LOCALES.map((locale) =>
        locale === current ? (
          <span
            key={locale}
            lang={locale}
            aria-current="true"
            // On phones the header has room for the other language only; screen readers still hear the current one.
            className="sr-only rounded px-2 py-1 font-semibold text-brand-800 sm:not-sr-only"
          >
            {LANGUAGE_NAMES[locale]}
          </span>
        ) : (
          <a
            key={locale}
            lang={locale}
            hrefLang={locale}
            href={`/language?${new URLSearchParams({ locale, returnTo })}`}
            className="rounded px-2 py-1 text-slate-700 underline-offset-2 hover:underline"
          >
            {LANGUAGE_NAMES[locale]}
          </a>
        ),
      )}
    </nav>
  );
}
