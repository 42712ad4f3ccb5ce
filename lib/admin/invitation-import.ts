/**
 * `users import <file.csv>`: invitations in bulk from a CSV file with the header
 * `email,company,role,language` (role and language may be left empty: user, en). Every row is checked before anything
 * is written, and one bad row refuses the whole file, naming its line; the rows are then stored in one transaction.
 */
import { OptiGateError } from "@/lib/errors/optigate-error";
import type { DataAccess } from "@/lib/service-context";
import type { Config } from "@/lib/config";
import { conflictError, prepareInvitation, type InvitationRequest } from "@/lib/admin/invitations";
import { checkRoleFits, parseEmail, parseLanguage, parseRole } from "@/lib/admin/person-fields";
import type { ProgressListener } from "@/lib/observability/progress";

const HEADER = ["email", "company", "role", "language"];
const MAX_IMPORT_ROWS = 100_000;
const CHUNK = 500;

class ImportError extends OptiGateError<"invalid_import"> {
  readonly code = "invalid_import";
}

const lineError = (line: number, message: string) => new ImportError(`line ${line}: ${message}`);

/** The fields of one CSV line (RFC 4180 quoting, without line breaks inside quotes). */
export function csvFields(line: string): string[] | undefined {
  const fields: string[] = [];
  let at = 0;
  for (;;) {
    if (line[at] === '"') {
      let value = "";
      at++;
      for (;;) {
        const quote = line.indexOf('"', at);
        if (quote < 0) return undefined;
        value += line.slice(at, quote);
        at = quote + 1;
        if (line[at] !== '"') break;
        value += '"';
        at++;
      }
      fields.push(value);
      if (at === line.length) return fields;
      if (line[at] !== ",") return undefined;
      at++;
    } else {
      const comma = line.indexOf(",", at);
      fields.push(line.slice(at, comma < 0 ? undefined : comma));
      if (comma < 0) return fields;
      at = comma + 1;
    }
  }
}

interface ImportRow extends InvitationRequest {
  line: number;
}

function parseRow(fields: string[] | undefined, line: number): ImportRow {
  if (!fields) throw lineError(line, "a quoted field is not closed or is followed by something other than a comma");
  if (fields.length !== HEADER.length)
    throw lineError(line, `has ${fields.length} fields; the header names ${HEADER.length}: ${HEADER.join(",")}`);
  const [email, companyId, role, language] = fields.map((field) => field.trim());
  try {
    return {
      line,
      email: parseEmail(email),
      companyId,
      role: parseRole(role || "user"),
      language: parseLanguage(language || "en"),
    };
  } catch (error) {
    throw lineError(line, (error as Error).message);
  }
}

/** The rows of the file, each checked on its own and against the others (an address twice). */
export function parseInvitationCsv(text: string): ImportRow[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  while (lines.length > 0 && lines.at(-1)!.trim() === "") lines.pop();
  const header = csvFields(lines[0] ?? "")?.map((field) => field.trim().toLowerCase());
  if (header?.join(",") !== HEADER.join(","))
    throw lineError(1, `the header must be ${HEADER.join(",")} (got "${(lines[0] ?? "").slice(0, 80)}")`);
  if (lines.length - 1 > MAX_IMPORT_ROWS) throw new ImportError(`the file has more than ${MAX_IMPORT_ROWS} rows`);
  const firstLineOf = new Map<string, number>();
  const rows: ImportRow[] = [];
  for (let index = 1; index < lines.length; index++) {
    if (lines[index].trim() === "") continue;
    const row = parseRow(csvFields(lines[index]), index + 1);
    const earlier = firstLineOf.get(row.email);
    if (earlier !== undefined) throw lineError(row.line, `${row.email} is already on line ${earlier}`);
    firstLineOf.set(row.email, row.line);
    rows.push(row);
  }
  if (rows.length === 0) throw new ImportError("the file has a header but no rows");
  return rows;
}

/**
 * Imports the file's invitations: all of them, or none with the first bad line named. How many were sent.
 * `onProgress` is told the rows stored of all rows, once they are checked.
 */
export async function importInvitations(
  context: DataAccess & { config: Pick<Config, "publicUrl" | "secretKey"> },
  text: string,
  { now = new Date(), onProgress }: { now?: Date; onProgress?: ProgressListener } = {},
): Promise<{ invited: number }> {
  const rows = parseInvitationCsv(text);
  const companies = await context.stores.companies.findStates([...new Set(rows.map((row) => row.companyId))]);
  for (const row of rows) {
    const company = companies.get(row.companyId);
    if (!company) throw lineError(row.line, `there is no company "${row.companyId}"`);
    if (!company.active) throw lineError(row.line, `company "${row.companyId}" is deactivated`);
    try {
      checkRoleFits(row.role, company.kind);
    } catch (error) {
      throw lineError(row.line, (error as Error).message);
    }
  }
  // Prepared a chunk at a time while the transaction stores the one before: a large file never sits in memory whole.
  async function* prepared() {
    onProgress?.(0, rows.length);
    for (let start = 0; start < rows.length; start += CHUNK) {
      const chunk = [];
      for (const row of rows.slice(start, start + CHUNK)) {
        const companyName = companies.get(row.companyId)!.name;
        chunk.push((await prepareInvitation(context, { ...row, companyName }, undefined, now)).entry);
      }
      yield chunk;
      // The store asks for the next chunk once it has written this one.
      onProgress?.(start + chunk.length, rows.length);
    }
  }
  const outcome = await context.stores.invitations.save(prepared(), now);
  if ("conflicts" in outcome) {
    const conflict = outcome.conflicts[0];
    const line = rows.find((row) => row.email === conflict.email)!.line;
    throw lineError(line, conflictError(conflict).message);
  }
  return { invited: outcome.stored };
}
