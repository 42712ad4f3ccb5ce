/**
 * Activity per hour (`activity_counts`): what the dashboards chart. Sign-ins, their failures and the lock-outs among
 * those come from their audit events; tokens by grant and catalog downloads are counted where they happen. The row
 * types live with the statements that write and read them (lib/db/statements/activity-counts.ts).
 */
import type { AuditEvent } from "@/lib/store/models/audit-event";

export {
  hourOf,
  type ActivityIncrement,
  type ActivityKind,
  type CompanyActivity,
  type HourlyActivity,
} from "@/lib/db/statements/activity-counts";

export type SignInActivity = "sign_in.succeeded" | "sign_in.failed" | "sign_in.locked";

/** The activity a sign-in's audit event stands for: a success, or a failure and, when it locked the account, a lock-out. */
export function signInActivityOf(event: AuditEvent): SignInActivity[] {
  if (event.type === "sign_in.succeeded") return ["sign_in.succeeded"];
  if (event.type !== "sign_in.failed") return [];
  return event.details?.locked === true ? ["sign_in.failed", "sign_in.locked"] : ["sign_in.failed"];
}
