/**
 * The audit trail in every language: each detail the code can write (the type of AuditEvent.details allows no other
 * names than lib/store/models/audit-details.ts lists), each value of a closed set, each event type and family is
 * shown by a label of that language, and what has none is written in words.
 */
import { createTranslator, type AbstractIntlMessages } from "next-intl";
import { describe, expect, it } from "vitest";
import { auditDetailLines } from "@/lib/admin/audit-detail-lines";
import {
  AUDIT_DETAIL_VALUES,
  auditDetailMessage,
  auditEventMessage,
  auditEventName,
  auditFamilyMessage,
  auditFamilyName,
  auditValueMessage,
  type Translator,
} from "@/lib/admin/audit-labels";
import { loadMessages, LOCALES } from "@/lib/i18n/locales";
import { AUDIT_DETAIL_KEYS } from "@/lib/store/models/audit-details";
import { AUDIT_EVENT_TYPES } from "@/lib/store/models/audit-event";

const translators = await Promise.all(
  LOCALES.map(async (locale) => {
    const messages = (await loadMessages(locale)) as unknown as AbstractIntlMessages;
    // Typed messages would type the keys; the labels look their messages up by name, as the page's translator does.
    return [locale, createTranslator({ locale, messages }) as unknown as Translator] as const;
  }),
);
const format = { dateTime: (date: Date) => `date ${date.toISOString()}`, number: (value: number) => `number ${value}` };
const RAW_NAME = /_|[a-z][A-Z]/;

describe.each(translators)("the audit trail in %s", (_, t) => {
  it("names every detail the code can write, in words of its own", () => {
    const everyDetail = Object.fromEntries(AUDIT_DETAIL_KEYS.map((key) => [key, "x"]));
    const lines = auditDetailLines(everyDetail, t, format);
    expect(lines.map((line) => line.key)).toEqual([...AUDIT_DETAIL_KEYS]);
    expect(AUDIT_DETAIL_KEYS.filter((key) => !t.has(auditDetailMessage(key)))).toEqual([]);
    for (const line of lines) expect(line.name, line.key).toBe(t(auditDetailMessage(line.key)));
  });

  it("names every value of a closed set, where a detail holds it (alone, in a list, in an object)", () => {
    for (const [key, vocabularies] of Object.entries(AUDIT_DETAIL_VALUES))
      for (const value of vocabularies.flatMap((vocabulary) => vocabulary.values)) {
        const message = auditValueMessage(key, value)!;
        expect(t.has(message), `${key}: ${value}`).toBe(true);
        const shown = (details: Record<string, unknown>) => auditDetailLines(details, t, format)[0].value;
        expect(shown({ [key]: value })).toBe(t(message));
        expect(shown({ [key]: [value, value] })).toBe(`${t(message)}, ${t(message)}`);
        expect(shown({ subscriptions: [{ [key]: value }] })).toBe(`${t(auditDetailMessage(key))}: ${t(message)}`);
      }
  });

  it("names every event type and family", () => {
    expect(AUDIT_EVENT_TYPES.filter((type) => !t.has(auditEventMessage(type)))).toEqual([]);
    const families = [...new Set(AUDIT_EVENT_TYPES.map((type) => type.split(".")[0]))];
    expect(families.filter((family) => !t.has(auditFamilyMessage(family)))).toEqual([]);
    for (const type of AUDIT_EVENT_TYPES) expect(auditEventName(t, type)).not.toMatch(RAW_NAME);
    for (const family of families) expect(auditFamilyName(t, family)).not.toMatch(RAW_NAME);
  });
});

describe("what the audit trail has no label for", () => {
  const [, english] = translators.find(([locale]) => locale === "en")!;

  it("is written in words: a detail or an event of a later version", () => {
    const [line] = auditDetailLines({ retriedBy_client: "x" }, english, format);
    expect(line.name).toBe("retried by client");
    expect(auditEventName(english, "user.sign_in_forgotten")).toBe("user sign in forgotten");
  });

  it("keeps a value outside its set as recorded: a provider's own words, an id", () => {
    const lines = auditDetailLines({ reason: "the key_set was empty", subject: "user_42", by: "u-1" }, english, format);
    expect(lines.map((line) => line.value)).toEqual(["the key_set was empty", "user_42", "u-1"]);
  });

  it("writes yes and no, dates and numbers in the page's language, and leaves out what is empty", () => {
    const [, german] = translators.find(([locale]) => locale === "de")!;
    const lines = auditDetailLines(
      { locked: true, linked: false, lockedUntil: "2026-11-28T10:00:00.000Z", sessions: 3, note: "", clients: [] },
      german,
      format,
    );
    expect(lines.map(({ name, value }) => `${name}: ${value}`)).toEqual([
      "Konto gesperrt: ja",
      "Konto verknüpft: nein",
      "Gesperrt bis: date 2026-11-28T10:00:00.000Z",
      "Beendete Sitzungen: number 3",
    ]);
  });
});
