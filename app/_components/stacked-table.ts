/**
 * Classes for tables that become stacked cards on a phone: below the sm breakpoint each row is a block and each cell
 * a line with its column's name in front (StackedLabel), so nothing runs off a 360 px screen.
 */
export const stacked = {
  table: "w-full text-sm max-sm:block",
  head: "bg-slate-50 text-slate-700 max-sm:sr-only",
  body: "divide-y divide-slate-200 max-sm:block",
  row: "max-sm:block max-sm:px-3 max-sm:py-3",
  cell: "px-3 py-2 text-left align-top max-sm:block max-sm:px-0 max-sm:py-0.5",
  th: "px-3 py-2 text-left align-top",
  /** The column's name in front of a cell's value, on phones only (the table head names it elsewhere). */
  label: "mr-1 font-medium text-slate-600 sm:hidden",
};
