/**
 * Activity counted where it happens (tokens by grant, catalog downloads) and added to `activity_counts` every few
 * seconds: these come too often to write a row each on their request's path. A process that stops adds what it
 * counted as it drains (scripts/serve.ts) and the cron routes add it on route-handler-only platforms; one that dies
 * loses at most the last few seconds' counts.
 */
import type { ActivityStore } from "@/lib/store/activity-store";
import { hourOf, type ActivityIncrement, type ActivityKind } from "@/lib/store/models/activity";

const FLUSH_DELAY_MS = 5000;

interface Tally {
  counts: Map<string, ActivityIncrement>;
  timer?: NodeJS.Timeout;
}

const tallies = new Map<ActivityStore, Tally>();

/** Counts one occurrence, added to the store within FLUSH_DELAY_MS. */
export function tallyActivity(activity: ActivityStore, companyId: string, kind: ActivityKind, at = new Date()): void {
  let tally = tallies.get(activity);
  if (!tally) tallies.set(activity, (tally = { counts: new Map() }));
  const hour = hourOf(at);
  const key = `${hour.getTime()}|${companyId}|${kind}`;
  const counted = tally.counts.get(key) ?? { at: hour, companyId, kind, count: 0 };
  counted.count += 1;
  tally.counts.set(key, counted);
  tally.timer ??= setTimeout(() => void flushActivity(activity).catch(() => undefined), FLUSH_DELAY_MS).unref();
}

/** Adds what was counted for this store; what cannot be written is kept for the next flush. */
async function flushActivity(activity: ActivityStore): Promise<void> {
  const tally = tallies.get(activity);
  if (!tally) return;
  clearTimeout(tally.timer);
  tally.timer = undefined;
  const counted = [...tally.counts.entries()];
  tally.counts.clear();
  for (const [index, [, increment]] of counted.entries()) {
    try {
      await activity.add([increment]);
    } catch (error) {
      for (const [key, kept] of counted.slice(index)) {
        const since = tally.counts.get(key);
        tally.counts.set(key, since ? { ...kept, count: kept.count + since.count } : kept);
      }
      throw error;
    }
  }
}

/** Adds what every store counted (a draining process, a cron call). */
export async function flushAllActivity(): Promise<void> {
  for (const activity of tallies.keys()) await flushActivity(activity);
}
