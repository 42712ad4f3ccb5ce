/**
 * An audit event's details as the lines the audit page shows, in its language: each detail's name
 * (lib/admin/audit-labels.ts) and its value with dates and numbers written by Intl, yes or no, a closed set's values
 * by their names, lists joined, and an object's members as "name: value".
 */
import { auditDetailName, auditValueMessage, type Translator } from "@/lib/admin/audit-labels";

/** How the page writes dates and numbers (next-intl's formatter in its language). */
interface DetailFormat {
  dateTime(date: Date): string;
  number(value: number): string;
}

interface AuditDetailLine {
  key: string;
  name: string;
  value: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

const isShown = (value: unknown) =>
  value !== null && value !== undefined && value !== "" && !(Array.isArray(value) && value.length === 0);

function valueText(key: string, value: unknown, t: Translator, format: DetailFormat): string {
  if (typeof value === "boolean") return t(value ? "Admin.auditValues.yes" : "Admin.auditValues.no");
  if (typeof value === "number") return format.number(value);
  if (typeof value === "string") {
    if (ISO_DATE.test(value)) return format.dateTime(new Date(value));
    const message = auditValueMessage(key, value);
    return message && t.has(message) ? t(message) : value;
  }
  if (Array.isArray(value)) return value.map((item) => valueText(key, item, t, format)).join(", ");
  if (typeof value === "object" && value !== null)
    return Object.entries(value)
      .filter(([, inner]) => isShown(inner))
      .map(([name, inner]) => `${auditDetailName(t, name)}: ${valueText(name, inner, t, format)}`)
      .join("; ");
  return String(value);
}

/** The details worth a line (none that are empty), in the order recorded. */
export function auditDetailLines(details: Record<string, unknown>, t: Translator, format: DetailFormat) {
  return Object.entries(details)
    .filter(([, value]) => isShown(value))
    .map(([key, value]): AuditDetailLine => ({
      key,
      name: auditDetailName(t, key),
      value: valueText(key, value, t, format),
    }));
}
