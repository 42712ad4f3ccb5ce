/** Paths of OptiGate's own pages that forms and pages lead to. */
export const PORTAL_PATH = "/portal/applications";
export const PROFILE_PATH = "/portal/profile";
export const CATALOGS_PATH = "/portal/catalogs";
export const SUPPLIERS_PATH = "/portal/suppliers";
export const SIGN_OUT_PATH = "/signout";

/** The pages of a sign-in under way (login, consent, sign-out): they show no menu that would lead away from it. */
const SIGN_IN_PATHS = ["/login", "/consent", SIGN_OUT_PATH];

export function isSignInPath(pathname: string): boolean {
  return SIGN_IN_PATHS.includes(pathname);
}
