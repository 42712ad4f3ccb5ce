"use client";
/**
 * The passkey ceremonies in the browser (@simplewebauthn/browser), against POST /interaction/passkey with the page's
 * CSRF token: signing in (`sign-in`: no user name, with browser autofill on the login page where supported;
 * `second-factor`: the user at the second step) and adding a passkey on the security page (`register`). A refusal is
 * said at the button, in the page's language; success goes where the server says.
 */
import { FORMS } from "@/lib/http/paths";
import { useEffect, useRef, useState } from "react";
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
} from "@simplewebauthn/browser";

type Mode = "sign-in" | "second-factor" | "register";

interface Answer {
  next?: string;
  error?: string;
}

async function post(fields: Record<string, string>): Promise<Answer & Record<string, unknown>> {
  const response = await fetch(FORMS.passkey, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    credentials: "same-origin",
  });
  return (await response.json().catch(() => ({ error: "failed" }))) as Answer & Record<string, unknown>;
}

/** One ceremony: options, the browser's prompt, the answer; where to go next, or the refusal's code. */
async function ceremony(mode: Mode, base: Record<string, string>, autofill: boolean): Promise<Answer> {
  const register = mode === "register";
  const step = mode === "second-factor" ? "second-factor" : "sign-in";
  const options = await post({ ...base, action: register ? "register-options" : "options", step });
  if (options.error) return options;
  try {
    const response = register
      ? await startRegistration({ optionsJSON: options as never })
      : await startAuthentication({ optionsJSON: options as never, useBrowserAutofill: autofill });
    return post({ ...base, action: register ? "register" : "verify", step, response: JSON.stringify(response) });
  } catch (error) {
    const name = (error as Error).name;
    return { error: name === "NotAllowedError" || name === "AbortError" ? "cancelled" : "failed" };
  }
}

export function PasskeyButton({
  mode,
  csrf,
  returnUrl,
  label,
  errors,
  className,
  nameInput,
  passwordInput,
  autofill = false,
}: {
  mode: Mode;
  csrf: string;
  returnUrl?: string;
  label: string;
  /** the refusals' sentences by code, with `failed` for anything else */
  errors: Record<string, string>;
  className: string;
  /** register: the id of the input that names the new passkey */
  nameInput?: string;
  /** register: the id of the password input, where the first factor asks for the password */
  passwordInput?: string;
  /** sign-in: offer the user's passkeys in the user name field's autofill */
  autofill?: boolean;
}) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [supported, setSupported] = useState(true);
  const started = useRef(false);
  const base = { csrf_token: csrf, ...(returnUrl ? { returnUrl } : {}) };

  const finish = (answer: Answer) => {
    if (answer.next) return window.location.assign(answer.next);
    if (answer.error && !(autofill && answer.error === "cancelled")) setError(answer.error);
  };

  useEffect(() => {
    setSupported(browserSupportsWebAuthn());
    if (!autofill || started.current) return;
    started.current = true;
    void browserSupportsWebAuthnAutofill().then((can) => (can ? ceremony(mode, base, true).then(finish) : undefined));
    return () => WebAuthnAbortService.cancelCeremony();
    // The autofill request starts once, with the page's first values.
  }, []);

  const run = async () => {
    setError(undefined);
    setBusy(true);
    const value = (id?: string) => (id ? (document.getElementById(id) as HTMLInputElement | null)?.value : undefined);
    const [name, password] = [value(nameInput), value(passwordInput)];
    const typed = { ...(name ? { name } : {}), ...(password ? { current_password: password } : {}) };
    finish(await ceremony(mode, { ...base, ...typed }, false));
    setBusy(false);
  };

  return (
    <div>
      <button type="button" onClick={() => void run()} disabled={busy || !supported} className={className}>
        {label}
      </button>
      {!supported || error ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800" data-passkey-error={error ?? "unsupported"}>
          {!supported ? errors.unsupported : (errors[error!] ?? errors.failed)}
        </p>
      ) : null}
    </div>
  );
}
