/**
 * The outbox page's forms (/admin/outbox), posted to /interaction/admin: queue a failed message again, send a test
 * mail. The same rights functions as /manage/v1/outbox (lib/rights/operator-outbox.ts); a refusal becomes the page's
 * sentence (Admin.problems.*), with the address typed when it was the address that was refused.
 */
import { PAGES } from "@/lib/http/paths";
import { pageUrl } from "@/lib/http/see-other";
import type { Actor } from "@/lib/rights/actor";
import { OutboxActionError, PersonFieldError, retryMailFor, sendTestMailFor } from "@/lib/rights/operator-outbox";
import type { AdminFormProblem } from "@/lib/forms/admin-form-problem";

export const OUTBOX_ACTIONS = ["outbox-retry", "outbox-test-mail"] as const;
type OutboxAction = (typeof OUTBOX_ACTIONS)[number];

/** Longer than any message id or address; such input is cut before it reaches a rule or a cookie. */
const MAX_FIELD_LENGTH = 300;

export const isOutboxAction = (action: string): action is OutboxAction =>
  (OUTBOX_ACTIONS as readonly string[]).includes(action);

/** Does what the form asks; where the page goes next. */
export async function submitOutboxForm(actor: Actor, action: OutboxAction, form: URLSearchParams): Promise<string> {
  const field = (name: string) => (form.get(name) ?? "").slice(0, MAX_FIELD_LENGTH);
  if (action === "outbox-retry") {
    await retryMailFor(actor, field("message_id"));
    return pageUrl(PAGES.adminOutbox, { retried: "1" });
  }
  await sendTestMailFor(actor, field("to"), field("language") || undefined);
  return pageUrl(PAGES.adminOutbox, { testQueued: "1" });
}

export const isOutboxRefusal = (error: unknown): error is OutboxActionError | PersonFieldError =>
  error instanceof OutboxActionError || error instanceof PersonFieldError;

/** The page's sentence for a refusal. */
export function outboxProblem(error: OutboxActionError | PersonFieldError, form: URLSearchParams): AdminFormProblem {
  if (error instanceof PersonFieldError)
    return error.code === "invalid_email"
      ? { key: "testRecipient", field: "test-to", value: (form.get("to") ?? "").slice(0, MAX_FIELD_LENGTH) }
      : { key: "testLanguage", field: "test-language" };
  if (error.code === "not_found") return { key: "notFoundMessage" };
  if (error.reason === "one_time_link") return { key: "outboxOneTimeLink" };
  if (error.reason === "erased") return { key: "outboxErased" };
  // Not failed, or no longer: another retry got there first.
  return { key: "outboxNotFailed" };
}
