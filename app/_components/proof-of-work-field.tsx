"use client";
/**
 * The proof of work a sign-in form asks for under attack: the browser starts on the page's challenge as soon as the
 * page opens, shows how far it got, and fills the hidden field. A submit before the work is done waits for it and
 * then goes on by itself. The solver (altcha-lib) is loaded only on pages that ask.
 */
import { useEffect, useRef, useState } from "react";
import type { Challenge } from "altcha-lib";

export interface ProofTexts {
  working: string;
  progress: string;
  done: string;
  failed: string;
}

const LOOK = {
  working: "border-slate-300 bg-slate-50 text-slate-700",
  done: "border-green-300 bg-green-50 text-green-900",
  failed: "border-red-200 bg-red-50 text-red-800",
};

export function ProofOfWorkField({
  name,
  challenge,
  texts,
}: {
  name: string;
  challenge: Challenge;
  texts: ProofTexts;
}) {
  const field = useRef<HTMLInputElement>(null);
  const submitWhenDone = useRef(false);
  const [payload, setPayload] = useState("");
  const [progress, setProgress] = useState(0);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    import("@/lib/proof-of-work/solve-in-browser")
      .then(({ solveProofInBrowser }) => solveProofInBrowser(challenge, setProgress, controller))
      .then((solved) => {
        if (solved) setPayload(solved);
        else if (!controller.signal.aborted) setFailed(true);
      })
      .catch(() => setFailed(true));
    return () => controller.abort();
  }, [challenge]);

  useEffect(() => {
    const form = field.current?.form;
    if (!form) return;
    const holdUntilSolved = (event: SubmitEvent) => {
      if (field.current?.value) return;
      event.preventDefault();
      submitWhenDone.current = true;
    };
    form.addEventListener("submit", holdUntilSolved);
    return () => form.removeEventListener("submit", holdUntilSolved);
  }, []);

  useEffect(() => {
    if (payload && submitWhenDone.current) field.current?.form?.requestSubmit();
  }, [payload]);

  const state = failed ? "failed" : payload ? "done" : "working";
  return (
    <div className={`rounded-md border p-3 ${LOOK[state]}`} data-proof-of-work={state}>
      <input ref={field} type="hidden" name={name} value={payload} />
      <p role="status" className="text-sm">
        {texts[state]}
      </p>
      {state === "working" ? (
        <progress className="mt-2 h-2 w-full accent-brand-600" max={1} value={progress} aria-label={texts.progress} />
      ) : null}
    </div>
  );
}
