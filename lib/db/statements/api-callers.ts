/**
 * What every platform API call reads about its caller, on the driver and in one statement (the API's hot path): the
 * token's user with the company they belong to now, or a backend client's company, each with the company's active
 * registrations and their subscriptions (the customer links of the catalog lists); and those registrations alone.
 */
import type { Db } from "@/lib/db/prisma";
import { runStatement, type NamedStatement } from "@/lib/db/run-statement";

interface CompanyRow {
  id: string;
  name: string;
  kind: string;
  supplierId: string | null;
  requireSecondFactor: boolean;
}

/** The company and its active registrations with their subscriptions, one row per subscription (at least one row). */
const COMPANY_WITH_LINKS = `c."id", c."name", c."kind", c."supplier_id", c."require_second_factor",
    r."id" AS "registration_id", r."supplier_company_id", r."client_id", r."customer_groups", s."catalog_id", s."status"
    FROM "companies" c
    LEFT JOIN "supplier_registrations" r ON r."optician_company_id" = c."id" AND r."status" = 'active'
    LEFT JOIN "catalog_subscriptions" s ON s."registration_id" = r."id"`;

export const USER_AS_CALLER: NamedStatement = {
  name: "optigate_user_as_caller",
  sql: () => `SELECT u."active", ${COMPANY_WITH_LINKS} JOIN "users" u ON u."company_id" = c."id" WHERE u."id" = ?`,
};

export const COMPANY_AS_CALLER: NamedStatement = {
  name: "optigate_company_as_caller",
  sql: () => `SELECT ${COMPANY_WITH_LINKS} WHERE c."id" = ?`,
};

export const ACTIVE_REGISTRATIONS: NamedStatement = {
  name: "optigate_active_registrations",
  sql: () => `SELECT r."id" AS "registration_id", r."supplier_company_id", r."client_id", r."customer_groups", s."catalog_id", s."status"
    FROM "supplier_registrations" r LEFT JOIN "catalog_subscriptions" s ON s."registration_id" = r."id"
    WHERE r."optician_company_id" = ? AND r."status" = 'active'`,
};

type Columns = {
  id: string;
  name: string;
  kind: string;
  supplier_id: string | null;
  /** SQLite answers 0 or 1 */
  require_second_factor: boolean | number;
  active?: boolean | number;
};
type LinkColumns = {
  registration_id: string | null;
  supplier_company_id: string | null;
  client_id: string | null;
  customer_groups: string | null;
  catalog_id: string | null;
  status: string | null;
};

export interface Caller {
  company: CompanyRow;
  /** an optician company's active registrations; none for other companies */
  registrations: ActiveRegistrationRow[];
}

function callerOf(rows: (Columns & LinkColumns)[]): Caller | undefined {
  if (rows.length === 0 || (rows[0].active !== undefined && !rows[0].active)) return undefined;
  const { id, name, kind, supplier_id: supplierId, require_second_factor: required } = rows[0];
  return {
    company: { id, name, kind, supplierId, requireSecondFactor: Boolean(required) },
    registrations: groupRegistrations(rows),
  };
}

/** The user's company with its active registrations, when the user exists and is active. */
export async function userAsCaller(db: Db, userId: string): Promise<Caller | undefined> {
  return callerOf(await runStatement<Columns & LinkColumns>(db, USER_AS_CALLER, [userId]));
}

/** A company (a backend client's) with its active registrations. */
export async function companyAsCaller(db: Db, companyId: string): Promise<Caller | undefined> {
  return callerOf(await runStatement<Columns & LinkColumns>(db, COMPANY_AS_CALLER, [companyId]));
}

export interface ActiveRegistrationRow {
  registrationId: string;
  supplierCompanyId: string;
  clientId: string;
  customerGroups: number[];
  subscriptions: { catalogId: string; status: string }[];
}

function groupRegistrations(rows: LinkColumns[]): ActiveRegistrationRow[] {
  const registrations = new Map<string, ActiveRegistrationRow>();
  for (const row of rows) {
    if (row.registration_id === null) continue;
    let registration = registrations.get(row.registration_id);
    if (!registration) {
      registration = {
        registrationId: row.registration_id,
        supplierCompanyId: row.supplier_company_id!,
        clientId: row.client_id!,
        customerGroups: JSON.parse(row.customer_groups!) as number[],
        subscriptions: [],
      };
      registrations.set(row.registration_id, registration);
    }
    if (row.catalog_id !== null) registration.subscriptions.push({ catalogId: row.catalog_id, status: row.status! });
  }
  return [...registrations.values()];
}

/** The company's active registrations, each with its subscriptions. */
export async function activeRegistrations(db: Db, opticianCompanyId: string): Promise<ActiveRegistrationRow[]> {
  return groupRegistrations(await runStatement<LinkColumns>(db, ACTIVE_REGISTRATIONS, [opticianCompanyId]));
}
