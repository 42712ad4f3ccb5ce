/**
 * Activity per hour (`activity_counts`, lib/store/models/activity.ts), for the dashboards: added to by one statement
 * per hour, kind and company (lib/db/statements/activity-counts.ts), read as sums over a period, for the whole
 * platform or for one company.
 */
import type { Db } from "@/lib/db/prisma";
import { addActivity, readActivityByCompany, readHourlyActivity } from "@/lib/db/statements/activity-counts";
import type { ActivityIncrement, ActivityKind, CompanyActivity, HourlyActivity } from "@/lib/store/models/activity";

export interface ActivityQuery {
  /** the first hour counted */
  since: Date;
  /** the kinds counted: sign-ins (succeeded, failed, locked), tokens by grant, or catalog downloads */
  kinds: ActivityGroup;
  /** one company's activity; the whole platform's without it */
  companyId?: string;
}

export type ActivityGroup = "sign_in" | "token" | "catalog.download";

export interface ActivityStore {
  add(increments: readonly ActivityIncrement[]): Promise<void>;
  /** The sums per hour and kind, hours without activity left out. */
  hourly(query: ActivityQuery): Promise<HourlyActivity[]>;
  /** The sums per company and kind over the whole period, for the whole platform. */
  byCompany(query: Omit<ActivityQuery, "companyId">): Promise<CompanyActivity[]>;
  /** Forgets the hours before `before`; how many rows went. */
  purgeBefore(before: Date): Promise<number>;
}

/** The SQL LIKE pattern of a group's kinds (none of them holds a wildcard). */
const groupPattern = (group: ActivityGroup) => (group === "catalog.download" ? group : `${group}.%`);

/** Whether a kind belongs to the group, as its pattern decides in the database. */
export const inGroup = (kind: ActivityKind, group: ActivityGroup) =>
  group === "catalog.download" ? kind === group : kind.startsWith(`${group}.`);

export function prismaActivityStore(db: Db): ActivityStore {
  return {
    add: (increments) => addActivity(db, increments),
    hourly: ({ since, kinds, companyId }) => readHourlyActivity(db, since, groupPattern(kinds), companyId),
    byCompany: ({ since, kinds }) => readActivityByCompany(db, since, groupPattern(kinds)),
    async purgeBefore(before) {
      return (await db.activityCount.deleteMany({ where: { hour: { lt: before } } })).count;
    },
  };
}
