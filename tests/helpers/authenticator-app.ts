/**
 * Sets up an authenticator app the way its owner does on the security page: started with the current password,
 * confirmed with the app's first code. Gives the app (to make codes with) and the recovery codes shown once.
 */
import { Secret, TOTP } from "otpauth";
import { expect } from "vitest";
import { RECOVERY_CODES_COOKIE } from "@/lib/http/flash-cookies";
import { unsealedCookieValue } from "@/lib/http/sealed-cookie";
import { actorOfSessionCookie } from "@/lib/rights/actor";
import { securityView } from "@/lib/rights/second-factors";
import { getServiceContext } from "@/lib/service-context";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";
import { SECRET_KEY, type UserAgent } from "./oauth-service";

export async function enrolAuthenticatorApp(
  agent: UserAgent,
  password: string,
): Promise<{ app: TOTP; codes: string[] }> {
  const security = (form: Record<string, string>) => agent.post("security", "/interaction/security", form);
  const start = await security({ action: "totp-start", current_password: password });
  expect(start.headers.get("location")).toMatch(/done=totp-start/);
  const view = await securityView(await actorOfSessionCookie(getServiceContext(), agent.cookies.get(SESSION_COOKIE)));
  const app = new TOTP({ secret: Secret.fromBase32(view.enrolment!.secret), digits: 6, period: 30 });
  const confirmed = await security({ action: "totp-confirm", code: app.generate() });
  expect(confirmed.headers.get("location")).toMatch(/done=totp-confirm/);
  const codes =
    unsealedCookieValue<string[]>(RECOVERY_CODES_COOKIE, agent.cookies.get(RECOVERY_CODES_COOKIE), SECRET_KEY) ?? [];
  return { app, codes };
}
