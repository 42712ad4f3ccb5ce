/**
 * Days and instants as people and clients type them: a day (YYYY-MM-DD, UTC) or an RFC 3339 date-time (seconds
 * optional, fractions kept to the millisecond). Read strictly: a day or time that does not exist (2026-02-30, 24:00,
 * an offset of +24:00) is refused instead of rolled over as Date does, and so is any instant outside
 * 0001-01-01T00:00:00Z…9999-12-31T23:59:59.999Z, the span both databases store (PostgreSQL refuses year 0 and years
 * past 9999, which an offset can reach from an in-range text). Every page, API route and CLI command that takes a date
 * reads it here and refuses what this refuses with its own error.
 */

const EARLIEST_INSTANT = new Date("0001-01-01T00:00:00.000Z");
const LATEST_INSTANT = new Date("9999-12-31T23:59:59.999Z");

/** What a day alone stands for: its first moment, its last second (an expiry), or the next day's start (an end). */
export type DayReading = "start" | "last-second" | "next-start";

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DAY_MS = 86_400_000;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysIn = (year: number, month: number) => (month === 2 && isLeap(year) ? 29 : MONTH_DAYS[month - 1]);

/** The UTC time of a calendar day and time of day, or null when one of them does not exist. */
function utcOf(year: number, month: number, day: number, [hours, minutes, seconds, ms] = [0, 0, 0, 0]) {
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  // setUTCFullYear, unlike Date.UTC, takes years 0…99 as they are.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hours, minutes, seconds, ms);
  return date.getTime();
}

const inRange = (time: number | null): time is number =>
  time !== null && time >= EARLIEST_INSTANT.getTime() && time <= LATEST_INSTANT.getTime();

/** A day (YYYY-MM-DD) read as `reading` says; null when it is no day of years 1…9999. */
export function parseDay(text: string, reading: DayReading): Date | null {
  const match = DAY.exec(text);
  const start = match && utcOf(Number(match[1]), Number(match[2]), Number(match[3]));
  if (!inRange(start)) return null;
  if (reading === "start") return new Date(start);
  if (reading === "last-second") return new Date(start + DAY_MS - 1000);
  // The day after 9999-12-31 cannot be stored: its end is the last instant that can.
  return new Date(Math.min(start + DAY_MS, LATEST_INSTANT.getTime()));
}

/** An RFC 3339 date-time, or a day read as `dayReading` says; null when it is neither or lies outside the span. */
export function parseInstant(text: string, dayReading: DayReading): Date | null {
  if (DAY.test(text)) return parseDay(text, dayReading);
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hours, minutes, seconds = "0", fraction = "", sign, offsetHours, offsetMinutes] =
    match.slice(1);
  const ms = Number(fraction.padEnd(3, "0").slice(0, 3));
  const local = utcOf(Number(year), Number(month), Number(day), [+hours, +minutes, +seconds, ms]);
  if (local === null) return null;
  if (sign && (Number(offsetHours) > 23 || Number(offsetMinutes) > 59)) return null;
  const offset = sign ? (sign === "-" ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000 : 0;
  const time = local - offset;
  return inRange(time) ? new Date(time) : null;
}
