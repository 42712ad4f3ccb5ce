/** Reads the tables, columns and unique keys a Prisma schema file declares (enough to check the SQL migrations). */
import { readFileSync } from "node:fs";

export interface ExpectedColumn {
  name: string;
  type: string;
  nullable: boolean;
}

export interface ExpectedTable {
  name: string;
  columns: ExpectedColumn[];
  /** Column lists of @unique fields and @@unique attributes, comma-joined. */
  uniqueKeys: string[];
}

const SCALARS = new Set(["String", "Boolean", "Int", "BigInt", "Float", "Decimal", "DateTime", "Json", "Bytes"]);

export function readSchemaTables(file: string): ExpectedTable[] {
  const text = readFileSync(file, "utf8").replace(/^\s*\/\/.*$/gm, "");
  return [...text.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)].map(([, model, body]) => {
    const columnOf = new Map<string, string>();
    const columns: ExpectedColumn[] = [];
    const uniqueKeys: string[] = [];
    for (const line of body.split("\n").map((l) => l.trim())) {
      const field = /^(\w+)\s+(\w+)(\??)(\[\])?\s*(.*)$/.exec(line);
      if (!field || !SCALARS.has(field[2])) continue;
      const column = /@map\("([^"]+)"\)/.exec(field[5])?.[1] ?? field[1];
      columnOf.set(field[1], column);
      columns.push({ name: column, type: field[2], nullable: field[3] === "?" });
      if (/@unique\b/.test(field[5])) uniqueKeys.push(column);
    }
    for (const [, fields] of body.matchAll(/@@unique\(\[([^\]]+)\]\)/g)) {
      uniqueKeys.push(
        fields
          .split(",")
          .map((f) => columnOf.get(f.trim()))
          .join(","),
      );
    }
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? model;
    return { name: table, columns, uniqueKeys: uniqueKeys.sort() };
  });
}
