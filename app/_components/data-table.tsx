/**
 * The tables of OptiGate's pages: a head of column names and rows of cells that become stacked cards on a phone, where
 * each cell shows its column's name in front (its `label`), so nothing runs off a 360 px screen.
 */
import type { HTMLAttributes, ReactNode, TdHTMLAttributes } from "react";

const stacked = {
  table: "w-full text-sm max-sm:block",
  head: "bg-slate-50 text-slate-700 max-sm:sr-only",
  body: "divide-y divide-slate-200 max-sm:block",
  row: "max-sm:block max-sm:px-3 max-sm:py-3",
  cell: "px-3 py-2 text-left align-top max-sm:block max-sm:px-0 max-sm:py-0.5",
  th: "px-3 py-2 text-left align-top",
};

/** The column's name in front of a cell's value, on phones only; for a cell whose name is a form field's label. */
export const CELL_LABEL = "mr-1 font-medium text-slate-600 sm:hidden";

export function DataTable(props: { columns: ReactNode[]; className?: string; children: ReactNode }) {
  return (
    <table className={props.className ? `${props.className} ${stacked.table}` : stacked.table}>
      <thead className={stacked.head}>
        <tr>
          {props.columns.map((column, index) => (
            <th key={index} className={stacked.th}>
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={stacked.body}>{props.children}</tbody>
    </table>
  );
}

export function DataRow({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr {...props} className={className ? `${stacked.row} ${className}` : stacked.row} />;
}

/** A cell; `label` names its column on a phone, where the table head is hidden (the first cell needs none). */
export function DataCell({
  label,
  className,
  children,
  ...props
}: TdHTMLAttributes<HTMLTableCellElement> & { label?: ReactNode }) {
  return (
    <td {...props} className={className ? `${stacked.cell} ${className}` : stacked.cell}>
      {label ? <span className={CELL_LABEL}>{label}</span> : null}
      {children}
    </td>
  );
}
