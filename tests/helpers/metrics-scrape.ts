/**
 * Reads the process's /metrics through its route handler, as a scraper does with METRICS_TOKEN, and tells how the
 * series moved while some work ran. The registry is the process's, shared by everything the test file did before:
 * only the differences say what the work counted. A test file that scrapes sets METRICS_TOKEN before its service.
 */
import { expect } from "vitest";
import { ROUTES } from "@/lib/server/routes";
import { ISSUER } from "./oauth-service";

export const METRICS_TOKEN = "metrics-token-0123456789";

/** Every series of the text by name and its labels (sorted, as `a=x,b=y`), with its value. */
type Series = Map<string, Map<string, number>>;

const SAMPLE = /^(\w+)(?:\{(.*)\})? (\S+)$/;

function parse(text: string): Series {
  const series: Series = new Map();
  for (const line of text.split("\n")) {
    const sample = SAMPLE.exec(line);
    if (!sample || line.startsWith("#")) continue;
    const [, name, labels = "", value] = sample;
    const key = [...labels.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)]
      .map(([, label, labelValue]) => `${label}=${labelValue}`)
      .sort()
      .join(",");
    if (!series.has(name)) series.set(name, new Map());
    series.get(name)!.set(key, Number(value));
  }
  return series;
}

interface Scrape {
  status: number;
  series: Series;
  /** The value of one series (labels as `a=x,b=y`, sorted; none for a series without labels); NaN when absent. */
  value(name: string, labels?: string): number;
}

export async function scrapeMetrics(): Promise<Scrape> {
  const response = await ROUTES["/metrics"].GET(
    new Request(`${ISSUER}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
  );
  const series = parse(await response.text());
  return { status: response.status, series, value: (name, labels = "") => series.get(name)?.get(labels) ?? NaN };
}

/**
 * Runs `work` between two scrapes; `moved(name)` gives the series of that name whose value changed, by labels, with
 * the change (a series that did not exist before counts from 0).
 */
export async function metricsMovedBy(work: () => Promise<unknown>): Promise<(name: string) => Record<string, number>> {
  const before = await scrapeMetrics();
  await work();
  const after = await scrapeMetrics();
  expect([before.status, after.status]).toEqual([200, 200]);
  return (name) => {
    const changes: Record<string, number> = {};
    for (const [labels, value] of after.series.get(name) ?? []) {
      const change = value - (before.series.get(name)?.get(labels) ?? 0);
      if (change !== 0) changes[labels] = change;
    }
    return changes;
  };
}
