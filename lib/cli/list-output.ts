/**
 * How every list of the operator CLI prints (`clients list`, `users list`, …): for a person, a table under a header
 * in capitals, its columns lined up and the last one as it is; with `--json`, which every list takes, the list as a
 * JSON array for a script, with more detail than the table has room for. An empty list is one line (`[]` as JSON).
 */

interface ListOutput {
  json: unknown[];
  header: readonly string[];
  /** a row of cells per entry, as many as the header has */
  rows: readonly (readonly string[])[];
  /** what an empty table says instead, such as "No clients registered." */
  empty: string;
}

/** A list command's arguments without `--json`, and whether it was among them. */
export function withoutJsonFlag(args: readonly string[]): { json: boolean; args: string[] } {
  return { json: args.includes("--json"), args: args.filter((arg) => arg !== "--json") };
}

export function printList(print: (line: string) => void, json: boolean, list: ListOutput): void {
  if (json) return print(JSON.stringify(list.json, null, 2));
  if (list.rows.length === 0) return print(list.empty);
  const last = list.header.length - 1;
  const widths = list.header.map((title, column) =>
    Math.max(title.length, ...list.rows.map((row) => row[column].length)),
  );
  for (const row of [list.header, ...list.rows])
    print(
      row
        .map((cell, column) => (column < last ? cell.padEnd(widths[column]) : cell))
        .join("  ")
        .trimEnd(),
    );
}

/** A date as a table shows it: to the minute, in UTC; "-" for none. */
export const tableDate = (date: Date | string | null | undefined): string =>
  date ? new Date(date).toISOString().slice(0, 16).replace("T", " ") : "-";
