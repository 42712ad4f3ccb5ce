"use client";

import { usePathname } from "next/navigation";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { isSignInPath } from "@/lib/http/paths";

export interface MenuItem {
  href: string;
  label: string;
  /** The part of the site the item stands for: it is the current item on every page under this path (none: its own page only). */
  section?: string;
}

/** aria-current for an item: "page" on its own page, "true" elsewhere in its section. */
function currentness(item: MenuItem, pathname: string): "page" | "true" | undefined {
  if (pathname === item.href) return "page";
  const { section } = item;
  return section && (pathname === section || pathname.startsWith(`${section}/`)) ? "true" : undefined;
}

/**
 * The signed-in user's menu: inline from 768 px up, behind a menu button on phones. Not shown on the sign-in pages
 * (login, consent, sign-out), where one click on it would abandon the sign-in under way.
 */
export function MainMenu({ items, label, buttonLabel }: { items: MenuItem[]; label: string; buttonLabel: string }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  if (isSignInPath(pathname)) return null;

  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !open) return;
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div onKeyDown={closeOnEscape} className="contents">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
        className="order-2 inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 md:hidden"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
          {open ? (
            <path d="M5.3 4 10 8.7 14.7 4 16 5.3 11.3 10l4.7 4.7-1.3 1.3-4.7-4.7L5.3 16 4 14.7 8.7 10 4 5.3z" />
          ) : (
            <path d="M3 5h14v2H3zm0 4h14v2H3zm0 4h14v2H3z" />
          )}
        </svg>
        {buttonLabel}
      </button>
      <nav
        id={menuId}
        aria-label={label}
        className={`${open ? "block" : "hidden"} order-last basis-full border-t border-slate-200 pt-2 md:order-none md:block md:basis-auto md:border-0 md:pt-0`}
      >
        <ul className="flex flex-col gap-1 text-sm md:flex-row md:flex-wrap md:items-center md:justify-end">
          {items.map((item) => {
            const current = currentness(item, pathname);
            return (
              <li key={item.href}>
                <a
                  href={item.href}
                  aria-current={current}
                  className={`block rounded px-2 py-2 underline-offset-4 hover:underline md:py-1 ${
                    current ? "bg-brand-50 font-semibold text-brand-800 underline decoration-2" : "text-slate-700"
                  }`}
                >
                  {item.label}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
    </div>
  );
}
