/** Days and instants read strictly, within the years 1…9999 both databases store. */
import { describe, expect, it } from "vitest";
import { parseDay, parseInstant, type DayReading } from "@/lib/http/calendar-instant";

const iso = (date: Date | null) => date?.toISOString() ?? null;

describe("parseInstant", () => {
  it.each<[string, DayReading, string]>([
    ["2026-05-31", "start", "2026-05-31T00:00:00.000Z"],
    ["2026-05-31", "last-second", "2026-05-31T23:59:59.000Z"],
    ["2026-05-31", "next-start", "2026-06-01T00:00:00.000Z"],
    ["2024-02-29", "start", "2024-02-29T00:00:00.000Z"],
    ["2000-02-29", "start", "2000-02-29T00:00:00.000Z"],
    ["0001-01-01", "start", "0001-01-01T00:00:00.000Z"],
    ["0001-01-01T00:00:00Z", "start", "0001-01-01T00:00:00.000Z"],
    ["0001-01-01T00:59:00+00:59", "start", "0001-01-01T00:00:00.000Z"],
    ["0099-03-01T12:00:00Z", "start", "0099-03-01T12:00:00.000Z"],
    ["9999-12-31", "last-second", "9999-12-31T23:59:59.000Z"],
    // The day after 9999-12-31 cannot be stored: an end on that day stops at the last instant that can.
    ["9999-12-31", "next-start", "9999-12-31T23:59:59.999Z"],
    ["9999-12-31T23:59:59.999Z", "start", "9999-12-31T23:59:59.999Z"],
    ["9999-12-31T23:59:59+01:00", "start", "9999-12-31T22:59:59.000Z"],
    ["2026-05-31T10:15Z", "start", "2026-05-31T10:15:00.000Z"],
    ["2026-05-31t10:15:30.123456789z", "start", "2026-05-31T10:15:30.123Z"],
    ["2026-05-31T10:15:30.5-02:30", "start", "2026-05-31T12:45:30.500Z"],
    ["1969-12-31T23:59:59.999Z", "start", "1969-12-31T23:59:59.999Z"],
  ])("reads %s (%s) as %s", (text, reading, expected) => {
    expect(iso(parseInstant(text, reading))).toBe(expected);
  });

  it.each([
    "0000-01-01",
    "0000-12-31T23:59:59Z",
    "0001-01-01T00:00:00+01:00",
    "9999-12-31T23:59:59-01:00",
    "10000-01-01",
    "275760-09-13",
    "+002026-01-01",
    "2026-02-30",
    "2023-02-29",
    "1900-02-29",
    "2026-13-01",
    "2026-00-10",
    "2026-04-31",
    "2026-01-01T24:00:00Z",
    "2026-01-01T23:60:00Z",
    "2026-01-01T23:59:60Z",
    "2026-01-01T10:00:00+24:00",
    "2026-01-01T10:00:00+01:60",
    "2026-01-01T10:00:00",
    "2026-01-01 10:00:00Z",
    "1969-12-31T23:59:59.9999999999Z",
    "2026-1-01",
    "20260101",
    " 2026-01-01",
    "2026-01-01\n",
    "soon",
    "",
  ])("refuses %j", (text) => {
    for (const reading of ["start", "last-second", "next-start"] as const)
      expect(parseInstant(text, reading)).toBeNull();
  });
});

describe("parseDay", () => {
  it("takes a day alone, never a date-time", () => {
    expect(iso(parseDay("2026-05-31", "last-second"))).toBe("2026-05-31T23:59:59.000Z");
    expect(parseDay("2026-05-31T10:00:00Z", "start")).toBeNull();
    expect(parseDay("2026-02-30", "start")).toBeNull();
    expect(parseDay("0000-01-01", "last-second")).toBeNull();
  });
});
