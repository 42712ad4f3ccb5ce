/**
 * A ranked list of counts as a table whose last column draws each count as a bar: the figures are text, the bars
 * only show their proportions, so the table reads the same to assistive technology.
 */
export function BarList({
  caption,
  label,
  countLabel,
  rows,
  empty,
  name,
}: {
  caption: string;
  /** the columns' headings, for assistive technology */
  label: string;
  countLabel: string;
  rows: { key: string; label: string; count: number }[];
  empty: string;
  /** the data-* name tests and styles find the list by */
  name: string;
}) {
  const most = Math.max(1, ...rows.map((row) => row.count));
  return (
    <section className="space-y-2" data-bar-list={name}>
      <h3 className="text-sm font-semibold text-slate-900">{caption}</h3>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="sr-only">
            <tr>
              <th>{label}</th>
              <th>{countLabel}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} data-row={row.key}>
                <th scope="row" className="w-1/3 break-words py-1 pr-2 font-normal text-slate-800">
                  {row.label}
                </th>
                <td className="py-1">
                  <span className="flex items-center gap-2">
                    <span
                      aria-hidden="true"
                      className="inline-block h-3 rounded-sm bg-brand-600"
                      style={{ width: `${Math.max(2, (row.count / most) * 100)}%` }}
                    />
                    <span className="tabular-nums text-slate-900">{row.count}</span>
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
