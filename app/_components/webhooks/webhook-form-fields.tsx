/** The hidden fields of every webhook form, and a form that is one button (turn on or off, new secret, replay). */
import type { ReactNode } from "react";
import { CSRF_FIELD } from "@/lib/pages/page-csrf";
import type { WebhookFormAction } from "@/lib/forms/webhook-form";

/** Where a page's webhook forms post to (/interaction/admin or the company page's route), with its CSRF token. */
export interface WebhookForms {
  action: string;
  csrf: string;
}

export function WebhookHiddenFields({
  forms,
  action,
  endpointId,
}: {
  forms: WebhookForms;
  action: WebhookFormAction;
  endpointId?: string;
}) {
  return (
    <>
      <input type="hidden" name={CSRF_FIELD} value={forms.csrf} />
      <input type="hidden" name="action" value={action} />
      {endpointId ? <input type="hidden" name="endpoint_id" value={endpointId} /> : null}
    </>
  );
}

export const smallWebhookButton =
  "rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-semibold text-slate-800 hover:bg-slate-50";

export function WebhookButtonForm({
  forms,
  action,
  endpointId,
  extra,
  children,
}: {
  forms: WebhookForms;
  action: WebhookFormAction;
  endpointId: string;
  /** further hidden fields, such as the delivery to replay */
  extra?: Record<string, string>;
  children: ReactNode;
}) {
  return (
    <form method="post" action={forms.action}>
      <WebhookHiddenFields forms={forms} action={action} endpointId={endpointId} />
      {Object.entries(extra ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </form>
  );
}
