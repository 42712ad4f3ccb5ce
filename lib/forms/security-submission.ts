/**
 * POST /interaction/security: the security page's second-factor forms, through lib/rights/second-factors.ts.
 * `action=totp-start`, `totp-confirm` (code), `totp-remove`, `recovery-renew`, `passkey-rename` (passkey_id, name),
 * `passkey-remove` (passkey_id); removing the last factor and renewing recovery codes take `current_password` when the
 * sign-in is older than five minutes. Each answers with the page and what happened, or why not; new recovery codes
 * go to the page in a one-time cookie.
 */
import { PAGES } from "@/lib/http/paths";
import { clientAddress } from "@/lib/http/client-address";
import { RECOVERY_CODES_COOKIE } from "@/lib/http/flash-cookies";
import { readForm } from "@/lib/http/form-body";
import { safeLocalPath } from "@/lib/http/local-path";
import { sealedCookie } from "@/lib/http/sealed-cookie";
import { pageUrl, plainRefusal, seeOther } from "@/lib/http/see-other";
import { actorOfRequest, pageLanguageOf, type Actor } from "@/lib/rights/actor";
import {
  confirmAuthenticatorApp,
  removeAuthenticatorApp,
  removeOwnPasskey,
  renameOwnPasskey,
  renewRecoveryCodes,
  SecondFactorError,
  startAuthenticatorApp,
  type OwnerProof,
} from "@/lib/rights/second-factors";
import type { ServiceContext } from "@/lib/service-context";
import { isValidCsrfSubmission } from "@/lib/session/csrf";

const ACTIONS = [
  "totp-start",
  "totp-confirm",
  "totp-remove",
  "recovery-renew",
  "passkey-rename",
  "passkey-remove",
] as const;
type SecurityAction = (typeof ACTIONS)[number];

/** The action's work; recovery codes when it made new ones. */
async function perform(
  actor: Actor,
  action: SecurityAction,
  form: URLSearchParams,
  proof: OwnerProof,
): Promise<string[] | undefined> {
  const passkeyId = (form.get("passkey_id") ?? "").slice(0, 64);
  switch (action) {
    case "totp-start":
      await startAuthenticatorApp(actor, proof);
      return undefined;
    case "totp-confirm":
      return confirmAuthenticatorApp(actor, (form.get("code") ?? "").slice(0, 20), proof.language);
    case "totp-remove":
      return removeAuthenticatorApp(actor, proof).then(() => undefined);
    case "recovery-renew":
      return renewRecoveryCodes(actor, proof);
    case "passkey-rename":
      return renameOwnPasskey(actor, passkeyId, (form.get("name") ?? "").slice(0, 200)).then(() => undefined);
    case "passkey-remove":
      return removeOwnPasskey(actor, passkeyId, proof).then(() => undefined);
  }
}

export async function handleSecuritySubmission(request: Request, context: ServiceContext): Promise<Response> {
  const { config } = context;
  const actor = await actorOfRequest(context, request);
  if (actor.kind === "anonymous") return seeOther(pageUrl(PAGES.login, { returnUrl: PAGES.security }));
  const form = await readForm(request);
  const action = ACTIONS.find((known) => known === form.get("action"));
  if (!action) return plainRefusal(400, "unknown action");
  const returnUrl = safeLocalPath(form.get("returnUrl"));
  const at = (params: Record<string, string | undefined>) => pageUrl(PAGES.security, { ...params, returnUrl });
  if (!isValidCsrfSubmission(request, form, config.secretKey, config.publicUrl))
    return seeOther(at({ error: "form_expired" }));
  const proof = {
    currentPassword: form.get("current_password") ?? undefined,
    ipAddress: clientAddress(request, config.trustedProxies),
    language: pageLanguageOf(actor, request),
  };
  try {
    const codes = await perform(actor, action, form, proof);
    const shown = codes ? [sealedCookie(RECOVERY_CODES_COOKIE, codes, { ...config, path: PAGES.security })] : [];
    return seeOther(`${at({ done: action })}#second-factor`, shown);
  } catch (error) {
    if (!(error instanceof SecondFactorError)) throw error;
    const minutes = error.code === "throttled" ? String(Math.ceil(error.retryAfterSeconds / 60)) : undefined;
    return seeOther(`${at({ error: error.code, form: action, minutes })}#second-factor`);
  }
}
