/**
 * What describes an endpoint, for the add and the change forms: its https address, a description, and the events it
 * gets, each event with what it means. A refusal shows at the field the rule named, with what was typed.
 */
import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import type { WebhookProblem, WebhookTyped } from "@/lib/forms/webhook-form";
import { FieldError, invalidInput, LabelledField } from "@/app/_components/labelled-field";

const fieldInput = `block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 ${invalidInput}`;

/** The message key of an event's text: next-intl reads a dot as a nesting. */
export const eventKey = (event: string) => event.replaceAll(".", "_") as "user_created";

export async function WebhookFields({
  idPrefix,
  events,
  values,
  problem,
  error,
}: {
  /** makes the inputs' ids unique on a page with several forms */
  idPrefix: string;
  events: readonly string[];
  values?: WebhookTyped;
  /** the refusal of this form, shown at its field */
  problem?: WebhookProblem;
  error?: ReactNode;
}) {
  const t = await getTranslations("Webhooks");
  const at = (field: WebhookProblem) => (problem === field ? error : undefined);
  const eventsError = at("invalid_events");
  return (
    <>
      <LabelledField id={`${idPrefix}-url`} label={t("url")} hint={t("urlHint")} error={at("invalid_url")}>
        {(aria) => (
          <input
            id={`${idPrefix}-url`}
            name="url"
            type="url"
            required
            maxLength={2000}
            autoComplete="off"
            spellCheck={false}
            defaultValue={values?.url}
            className={fieldInput}
            {...aria}
          />
        )}
      </LabelledField>
      <LabelledField
        id={`${idPrefix}-description`}
        label={t("description")}
        hint={t("descriptionHint")}
        error={at("invalid_description")}
      >
        {(aria) => (
          <input
            id={`${idPrefix}-description`}
            name="description"
            type="text"
            maxLength={200}
            autoComplete="off"
            defaultValue={values?.description}
            className={fieldInput}
            {...aria}
          />
        )}
      </LabelledField>
      <fieldset aria-describedby={eventsError ? `${idPrefix}-events-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">{t("eventsLegend")}</legend>
        <ul className="mt-2 grid gap-2 sm:grid-cols-2">
          {events.map((event) => (
            <li key={event} className="flex gap-3 rounded-md border border-slate-200 p-3">
              <input
                id={`${idPrefix}-event-${event}`}
                type="checkbox"
                name="event"
                value={event}
                defaultChecked={values?.events.includes(event)}
                className="mt-1 h-4 w-4 shrink-0 accent-brand-700"
              />
              <label htmlFor={`${idPrefix}-event-${event}`} className="min-w-0 text-sm">
                <span className="block text-slate-900">{t(`events.${eventKey(event)}`)}</span>
                <code className="block text-xs break-all text-slate-500">{event}</code>
              </label>
            </li>
          ))}
        </ul>
        <FieldError id={`${idPrefix}-events`} error={eventsError} />
      </fieldset>
    </>
  );
}
