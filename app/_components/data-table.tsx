/**
 * The tables of OptiGate's pages: a head of column names and rows of cells that become stacked cards on a phone, where
 * each cell shows its column's name in front (its `label`), so nothing runs off a 360 px screen. A row's actions sit
 * in a `DataActions` cell, a full-width strip at the card's foot on a phone; identifiers go in an `Identifier`, which
 * breaks only after its own separators.
 */
import { Fragment, type HTMLAttributes, type ReactNode, type TdHTMLAttributes } from "react";
import { identifierPieces } from "@/lib/pages/identifier-pieces";

const stacked = {
  table: "w-full text-sm max-sm:block",
  head: "bg-slate-50 text-slate-700 max-sm:sr-only",
  body: "divide-y divide-slate-200 max-sm:block",
  row: "max-sm:block max-sm:px-3 max-sm:py-3",
  cell: "px-3 py-2 text-left align-top max-sm:block max-sm:px-0 max-sm:py-0.5",
  th: "px-3 py-2 text-left align-top",
  actions:
    "px-3 py-2 text-left align-top max-sm:mt-2 max-sm:flex max-sm:flex-wrap max-sm:gap-2 max-sm:px-0 max-sm:py-0 max-sm:empty:hidden",
};

const joined = (base: string, extra: string | undefined) => (extra ? `${base} ${extra}` : base);

/** The column's name in front of a cell's value, on phones only; for a cell whose name is a form field's label. */
export const CELL_LABEL = "mr-1 font-sans font-medium text-slate-600 sm:hidden";

export function DataTable(props: { columns: ReactNode[]; className?: string; children: ReactNode }) {
  return (
    <table className={joined(stacked.table, props.className)}>
      <thead className={stacked.head}>
        <tr>
          {props.columns.map((column, index) => (
            <th key={index} scope="col" className={stacked.th}>
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
  return <tr {...props} className={joined(stacked.row, className)} />;
}

type CellProps = TdHTMLAttributes<HTMLTableCellElement> & { label?: ReactNode };

/** A cell; `label` names its column on a phone, where the table head is hidden (the first cell needs none). */
export function DataCell({ label, className, children, ...props }: CellProps) {
  return (
    <td {...props} className={joined(stacked.cell, className)}>
      {label ? <span className={CELL_LABEL}>{label}</span> : null}
      {children}
    </td>
  );
}

/** The row's name as its header cell (a claim's name, say), for tables whose rows are read by their first cell. */
export function DataRowHeader({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <th scope="row" className={joined(`${stacked.cell} font-normal`, className)}>
      {children}
    </th>
  );
}

/**
 * The row's actions, its last cell: on a phone a full-width strip at the foot of the row's card, its forms and buttons
 * side by side and wrapping, so the first of them is always on screen without scrolling sideways.
 */
export function DataActions({ className, children, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td {...props} data-row-actions="" className={joined(stacked.actions, className)}>
      {children}
    </td>
  );
}

/**
 * An identifier that never breaks inside a word: on wide screens only between its pieces (lib/pages/identifier-pieces),
 * so a table gives its column room for them; on a phone after any separator, and inside a word only when a piece is
 * wider than the whole screen, rather than push the page sideways.
 */
export function Identifier({ value, className }: { value: string; className?: string }) {
  return (
    <span data-identifier="" className={joined("max-sm:[overflow-wrap:anywhere]", className)}>
      {identifierPieces(value).map((piece, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          <span className="sm:whitespace-nowrap">{piece}</span>
        </Fragment>
      ))}
    </span>
  );
}
