/** A trusted issuer for the operator's federation page, registered as the operator does it: with the CLI. */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

export const PARTNER = "https://as.partner-of-the-operator.example";

/** Registers PARTNER in the e2e server's database (again: `federation add` replaces a registration). */
export function trustPartner(): void {
  const file = path.join(process.env.E2E_DATA_DIR!, "partner.json");
  writeFileSync(file, JSON.stringify({ issuer: PARTNER, jwks_uri: `${PARTNER}/jwks`, clients: ["demo-backend"], subject: "email" }));
  const env = { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL, SECRET_KEY: process.env.E2E_SECRET_KEY };
  execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", "federation", "add", file], { env, stdio: "pipe" });
}
