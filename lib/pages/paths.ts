/** Paths of OptiGate's own pages that forms and pages lead to. */
export const PORTAL_PATH = "/portal/applications";
export const PROFILE_PATH = "/portal/profile";
export const CATALOGS_PATH = "/portal/catalogs";
export const SUPPLIERS_PATH = "/portal/suppliers";
