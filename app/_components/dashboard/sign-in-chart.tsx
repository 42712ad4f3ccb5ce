/**
 * Sign-ins per hour as a server-drawn SVG: a column per hour, successes below, failures above them and lock-outs on
 * top, each kind in its own color and pattern-free shape order, with a text summary for assistive technology and the
 * same figures per day as a table under it.
 */
import type { SignInHour } from "@/lib/rights/dashboard";

export interface SignInChartTexts {
  title: string;
  summary: string;
  succeeded: string;
  failed: string;
  locked: string;
  table: string;
  day: string;
}

const WIDTH = 840;
const HEIGHT = 160;
const COLORS = { succeeded: "#15803d", failed: "#b45309", locked: "#b91c1c" };

function dailyTotals(hours: SignInHour[], dayOf: (date: Date) => string) {
  const days = new Map<string, { succeeded: number; failed: number; locked: number }>();
  for (const hour of hours) {
    const day = dayOf(hour.hour);
    const total = days.get(day) ?? { succeeded: 0, failed: 0, locked: 0 };
    total.succeeded += hour.succeeded;
    total.failed += hour.failed;
    total.locked += hour.locked;
    days.set(day, total);
  }
  return [...days];
}

export function SignInChart({
  id,
  hours,
  texts,
  dayOf,
}: {
  id: string;
  hours: SignInHour[];
  texts: SignInChartTexts;
  /** the day an hour belongs to, in the reader's language and time zone */
  dayOf: (date: Date) => string;
}) {
  const peak = Math.max(1, ...hours.map((hour) => hour.succeeded + hour.failed + hour.locked));
  const column = WIDTH / Math.max(1, hours.length);
  const scale = (count: number) => (count / peak) * (HEIGHT - 10);
  const legend = (["succeeded", "failed", "locked"] as const).map((kind) => (
    <span key={kind} className="inline-flex items-center gap-1">
      <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: COLORS[kind] }} />
      {texts[kind]}
    </span>
  ));
  return (
    <figure className="space-y-2" data-chart="sign-ins">
      <figcaption className="text-sm font-semibold text-slate-900" id={`${id}-title`}>
        {texts.title}
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-40 w-full rounded border border-slate-200 bg-white"
        role="img"
        aria-labelledby={`${id}-title ${id}-summary`}
        preserveAspectRatio="none"
      >
        {hours.map((hour, index) => {
          const x = index * column;
          let y = HEIGHT;
          return (["succeeded", "failed", "locked"] as const).map((kind) => {
            const height = scale(hour[kind]);
            y -= height;
            return height > 0 ? (
              <rect
                key={`${index}-${kind}`}
                x={x}
                y={y}
                width={Math.max(1, column - 1)}
                height={height}
                fill={COLORS[kind]}
              />
            ) : null;
          });
        })}
      </svg>
      {/* Where each 24 hours begin, under the columns: the summary and the table say the same in words. */}
      <p aria-hidden="true" className="grid grid-cols-7 text-xs text-slate-600">
        {hours
          .filter((_, index) => index % 24 === 0)
          .map((hour) => (
            <span key={hour.hour.getTime()}>{dayOf(hour.hour)}</span>
          ))}
      </p>
      <p id={`${id}-summary`} className="text-sm text-slate-700">
        {texts.summary}
      </p>
      <p className="flex flex-wrap gap-4 text-xs text-slate-700">{legend}</p>
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">{texts.table}</summary>
        <table className="mt-2 w-full text-left text-sm">
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th className="px-2 py-1">{texts.day}</th>
              <th className="px-2 py-1 text-right">{texts.succeeded}</th>
              <th className="px-2 py-1 text-right">{texts.failed}</th>
              <th className="px-2 py-1 text-right">{texts.locked}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {dailyTotals(hours, dayOf).map(([day, total]) => (
              <tr key={day} data-day={day}>
                <th scope="row" className="px-2 py-1 font-normal">
                  {day}
                </th>
                <td className="px-2 py-1 text-right tabular-nums">{total.succeeded}</td>
                <td className="px-2 py-1 text-right tabular-nums">{total.failed}</td>
                <td className="px-2 py-1 text-right tabular-nums">{total.locked}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
