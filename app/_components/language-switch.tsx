"use client";

import { ENDPOINTS } from "@/lib/http/paths";
import { usePathname, useSearchParams } from "next/navigation";
import { useRef, type KeyboardEvent } from "react";
import { isLocale, LANGUAGE_NAMES, LOCALES } from "@/lib/i18n/locales";

/**
 * The language switch: a disclosure naming the current language, opening a list of every language in its own name,
 * each a link to /language that returns to this very page (query included). A disclosure keeps the header one line
 * high on a 360 px phone whatever the number of languages, and works before any script has run.
 */
export function LanguageSwitch({ current, label }: { current: string; label: string }) {
  const pathname = usePathname();
  const query = useSearchParams().toString();
  const returnTo = query ? `${pathname}?${query}` : pathname;
  const details = useRef<HTMLDetailsElement>(null);
  const currentName = isLocale(current) ? LANGUAGE_NAMES[current] : current;

  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !details.current?.open) return;
    details.current.open = false;
    details.current.querySelector("summary")?.focus();
  };
  return (
    <nav aria-label={label} className="text-sm" onKeyDown={closeOnEscape}>
      <details ref={details} className="group relative">
        <summary className="flex cursor-pointer list-none items-center gap-1.5 rounded-md px-2 py-1.5 text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 text-slate-500" fill="currentColor">
            <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm5.9 7h-2.5a12 12 0 0 0-1.1-4.6A6 6 0 0 1 15.9 9ZM10 4.1c.7.9 1.3 2.6 1.4 4.9H8.6c.1-2.3.7-4 1.4-4.9ZM7.7 4.4A12 12 0 0 0 6.6 9H4.1a6 6 0 0 1 3.6-4.6ZM4.1 11h2.5a12 12 0 0 0 1.1 4.6A6 6 0 0 1 4.1 11Zm5.9 4.9c-.7-.9-1.3-2.6-1.4-4.9h2.8c-.1 2.3-.7 4-1.4 4.9Zm2.3-.3a12 12 0 0 0 1.1-4.6h2.5a6 6 0 0 1-3.6 4.6Z" />
          </svg>
          <span className="sr-only">{label}: </span>
          {/* On phones the header has room for the language's code only; screen readers hear its name. */}
          <span lang={current} className="sr-only sm:not-sr-only">
            {currentName}
          </span>
          <span aria-hidden="true" className="font-medium uppercase sm:hidden">
            {current}
          </span>
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className="h-3 w-3 transition group-open:rotate-180"
            fill="currentColor"
          >
            <path d="M5 7h10l-5 6z" />
          </svg>
        </summary>
        <ul className="absolute right-0 z-20 mt-1 min-w-40 rounded-md border border-slate-200 bg-white py-1 shadow-lg">
          {LOCALES.map((locale) => (
            <li key={locale}>
              <a
                lang={locale}
                hrefLang={locale}
                href={`${ENDPOINTS.language}?${new URLSearchParams({ locale, returnTo })}`}
                aria-current={locale === current ? "true" : undefined}
                className={`block px-3 py-2 hover:bg-slate-50 ${
                  locale === current ? "font-semibold text-brand-800" : "text-slate-700"
                }`}
              >
                {LANGUAGE_NAMES[locale]}
              </a>
            </li>
          ))}
        </ul>
      </details>
    </nav>
  );
}
