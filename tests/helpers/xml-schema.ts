/** Validation against the XSDs in docs/ with xmllint (Debian libxml2-utils), as a client of the services would. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const directory = mkdtempSync(path.join(tmpdir(), "optigate-xsd-"));

/** Throws with xmllint's own report when the document does not satisfy the schema. */
export function validateAgainst(schema: string, xml: string): void {
  const file = path.join(directory, `${crypto.randomUUID()}.xml`);
  writeFileSync(file, xml);
  try {
    execFileSync("xmllint", ["--noout", "--schema", schema, file], { stdio: "pipe" });
  } catch (error) {
    throw new Error(`${schema} refuses the document: ${String((error as { stderr?: Buffer }).stderr ?? error)}`, {
      cause: error,
    });
  }
}

export function schemaAccepts(schema: string, xml: string): boolean {
  try {
    validateAgainst(schema, xml);
    return true;
  } catch {
    return false;
  }
}
