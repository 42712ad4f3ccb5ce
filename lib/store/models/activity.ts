/**
 * Activity per hour (`activity_counts`): what the dashboards chart. Sign-ins, their failures and the lock-outs among
 * those come from their audit events; tokens by grant and catalog downloads are counted where they happen.
 */
import type { AuditEvent } from "@/lib/store/models/audit-event";

export type SignInActivity = "sign_in.succeeded" | "sign_in.failed" | "sign_in.locked";
export type ActivityKind = SignInActivity | `token.${string}` | "catalog.download";

/** Some activity of one kind, for one company ('' where none is concerned), within the hour it happened in. */
export interface ActivityIncrement {
  at: Date;
  companyId: string;
  kind: ActivityKind;
  count: number;
}

export interface HourlyActivity {
  hour: Date;
  kind: ActivityKind;
  count: number;
}

export interface CompanyActivity {
  companyId: string;
  kind: ActivityKind;
  count: number;
}

/** The start of the UTC hour `at` falls in. */
export const hourOf = (at: Date): Date => new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);

/** The activity a sign-in's audit event stands for: a success, or a failure and, when it locked the account, a lock-out. */
export function signInActivityOf(event: AuditEvent): SignInActivity[] {
  if (event.type === "sign_in.succeeded") return ["sign_in.succeeded"];
  if (event.type !== "sign_in.failed") return [];
  return event.details?.locked === true ? ["sign_in.failed", "sign_in.locked"] : ["sign_in.failed"];
}
