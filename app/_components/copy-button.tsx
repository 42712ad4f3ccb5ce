"use client";
import { useState } from "react";

/**
 * Copies a text with the Clipboard API and says so where screen readers hear it. Where the browser refuses (no
 * secure context, no permission), it says to select the text, which the page always shows next to the button.
 */
export function CopyButton({
  text,
  label,
  name,
  copied,
  failed,
}: {
  text: string;
  label: string;
  /** The button's accessible name when the visible label alone does not say what is copied; begins with it. */
  name?: string;
  copied: string;
  failed: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button
        type="button"
        onClick={copy}
        aria-label={name}
        className="rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-100"
      >
        {label}
      </button>
      <span role="status" className={`text-sm ${state === "failed" ? "text-red-800" : "text-green-800"}`}>
        {state === "copied" ? copied : state === "failed" ? failed : ""}
      </span>
    </span>
  );
}
