/** Paths of OptiGate's own pages that forms and pages lead to. */
export const PORTAL_PATH = "/portal/applications";
export const PROFILE_PATH = "/portal/profile";
export const CATALOGS_PATH = "/portal/catalogs";
export const SUPPLIERS_PATH = "/portal/suppliers";
export const SIGN_OUT_PATH = "/signout";
export const SECURITY_PATH = "/portal/security";
export const DEVELOPER_PATH = "/portal/developer";
export const FORGOT_PASSWORD_PATH = "/password/forgot";
export const RESET_PASSWORD_PATH = "/password/reset";
export const EMAIL_CONFIRM_PATH = "/email/confirm";
/** the second step of a sign-in; the authorize endpoint names it too (lib/oauth/authorize/authorize-endpoint.ts) */
export const SECOND_FACTOR_PATH = "/login/second-factor";

/**
 * The pages of a sign-in under way (login, consent, sign-out, a forgotten password): they show no menu that would
 * lead away from it.
 */
const SIGN_IN_PATHS = [
  "/login",
  SECOND_FACTOR_PATH,
  "/consent",
  SIGN_OUT_PATH,
  FORGOT_PASSWORD_PATH,
  RESET_PASSWORD_PATH,
];

export function isSignInPath(pathname: string): boolean {
  return SIGN_IN_PATHS.includes(pathname);
}
