/** A person with an account and the company they belong to, as the stores return them. */
export interface Company {
  id: string;
  name: string;
  /** "eye_care_professional", "supplier", "operator" or "software_vendor". */
  kind: string;
  country: string | null;
  active: boolean;
  /** Suppliers: the id opticians' software names them by in the catalog services. */
  supplierId: string | null;
  name1: string | null;
  name2: string | null;
  portalUrl: string | null;
  requireSecondFactor: boolean;
  /** The second-factor rule was set by an operator, so the company's administrators may not lift it. */
  secondFactorRuleByOperator: boolean;
  /** Mail its people of sign-ins from browsers new to their accounts; null: its kind's default (on for operators). */
  signInNotices: boolean | null;
  createdAt: Date;
}

/** One of a supplier's catalog web services, as opticians' software finds it in the catalog list. */
export interface SupplierWebService {
  id: string;
  supplierCompanyId: string;
  type: string;
  name: string;
  url: string;
  priority: number;
}

export interface User {
  id: string;
  companyId: string;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
  /** "user", "admin" or "developer". */
  role: string;
  active: boolean;
  /** Deactivated because the company was; activating the company activates the user again. */
  suspendedWithCompany: boolean;
  deactivatedByOperator: boolean;
  /** When every session and token was last ended (a reset, deactivation); older access tokens get no ticket. */
  signedOutAt: Date | null;
  passwordHash: string;
  preferredLanguage: string | null;
  lastSignInAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type UserWithCompany = User & { company: Company };

/** What a new account is made of; the rest starts at its defaults (active, no sign-in yet). */
export type NewUser = Pick<
  User,
  "email" | "givenName" | "familyName" | "companyId" | "role" | "emailVerified" | "passwordHash"
>;
