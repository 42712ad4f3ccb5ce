/**
 * What every platform API call reads about its caller: the token's user with the company they belong to now, or a
 * backend client's company, each with the company's active registrations and their subscriptions. One named
 * statement each on the driver (lib/db/statements/api-callers.ts), since it runs on the API's hot path.
 */
import type { Db } from "@/lib/db/prisma";
import { companyAsCaller, userAsCaller, type Caller } from "@/lib/db/statements/api-callers";
import { bindDb } from "@/lib/store/bind-db";

export type { ActiveRegistrationRow } from "@/lib/db/statements/api-callers";

export interface ApiCallerStore {
  /** The user's company with its active registrations, when the user exists and is active. */
  ofUser(userId: string): Promise<Caller | undefined>;
  /** A company (a backend client's) with its active registrations. */
  ofCompany(companyId: string): Promise<Caller | undefined>;
}

export const prismaApiCallerStore = (db: Db): ApiCallerStore =>
  bindDb(db, { ofUser: userAsCaller, ofCompany: companyAsCaller });
