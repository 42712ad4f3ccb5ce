/** A supplier registration: an optician company as a supplier's customer, with its catalog subscriptions. */
import type { Company } from "@/lib/store/models/user";

export interface Registration {
  id: string;
  opticianCompanyId: string;
  supplierCompanyId: string;
  /** The customer number at the supplier (ClientID). */
  clientId: string;
  /** "requested", "active", "rejected" or "withdrawn". */
  status: string;
  /** Customer groups besides the standard group 0. */
  customerGroups: number[];
  /** Raised by every change: the ETag. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A registration with its two companies and the catalogs it subscribes to, as lists and changes show it. */
export interface RegistrationRecord extends Registration {
  optician: Company;
  supplier: Company;
  subscriptions: { status: string; catalog: { catalogId: string } }[];
}

/** An active registration with its subscriptions (catalog row ids) and its customer's white-label article names. */
export interface ActiveRegistration extends Registration {
  subscriptions: { catalogId: string; status: string }[];
  whiteLabelNames: { articleNumber: string; name: string }[];
}
