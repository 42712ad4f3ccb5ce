/** The passkey button's refusals in the page's language, by the codes the server and the browser give. */
import { getTranslations } from "next-intl/server";

const CODES = [
  "challenge_unknown",
  "unknown_credential",
  "not_verified",
  "invalid_response",
  "not_enrolled",
  "sign_in_required",
  "form_expired",
  "already_enrolled",
  "second_factor_needed",
  "sso_only",
  "password_needed",
  "wrong_current_password",
  "cancelled",
  "unsupported",
  "failed",
] as const;

export async function passkeyErrors(): Promise<Record<string, string>> {
  const [t, security] = [await getTranslations("SecondFactor.errors"), await getTranslations("SecuritySecondFactor")];
  return Object.fromEntries(
    CODES.map((code) => [code, code === "already_enrolled" ? security("errors.already_enrolled") : t(code)]),
  );
}
