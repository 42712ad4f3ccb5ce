/** A trusted issuer for the operator's federation page, registered as the operator does it: with the CLI. */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

export const PARTNER = "https://as.partner-of-the-operator.example";

/** Registers PARTNER in the e2e server's database (again: `federation add` replaces a registration). */
export function trustPartner(): void {
  const env = { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL, SECRET_KEY: process.env.E2E_SECRET_KEY };
  const admin = (...args: string[]) =>
    execFileSync(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], { env, stdio: "pipe" }).toString();
  const write = (name: string, content: unknown) => {
    const file = path.join(process.env.E2E_DATA_DIR!, name);
    writeFileSync(file, JSON.stringify(content));
    return file;
  };
  if (!admin("clients", "list").includes("partner-app")) {
    admin(
      "clients",
      "add",
      write("partner-app.json", {
        client_id: "partner-app",
        grant_types: ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
        scope: "platform.catalogs.read",
      }),
    );
  }
  admin(
    "federation",
    "add",
    write("partner.json", {
      issuer: PARTNER,
      jwks_uri: `${PARTNER}/jwks`,
      clients: ["partner-app"],
      subject: "email",
      companies: ["demo-company-optician"],
    }),
  );
}
