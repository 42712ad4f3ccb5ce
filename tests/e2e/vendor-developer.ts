/**
 * A software vendor new to OptiGate with one developer, as an operator sets it up: the company added and the
 * developer invited through the CLI, the invitation accepted through its page.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { adminCommand } from "./admin-command";
import { joinByInvitation } from "./raw-pages";

/** The new vendor's id and its developer's credentials. */
export async function newVendorDeveloper(
  baseURL: string,
  vendor: { name: string; developer: { givenName: string; familyName: string } },
): Promise<{ companyId: string; credentials: readonly [string, string] }> {
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1000)}`;
  const companyId = `vendor-${stamp}`;
  const file = path.join(mkdtempSync(path.join(tmpdir(), "optigate-vendor-")), "vendor.json");
  writeFileSync(file, JSON.stringify({ id: companyId, name: vendor.name, kind: "software_vendor", country: "DE" }));
  adminCommand(baseURL, "companies", "add", file);
  const email = `dev-${stamp}@${companyId}.test`;
  const invited = adminCommand(baseURL, "users", "invite", email, "--company", companyId, "--role", "developer");
  const password = "werkbank quelltext leuchtturm";
  await joinByInvitation(baseURL, JSON.parse(invited).invitation_url, { ...vendor.developer, password });
  return { companyId, credentials: [email, password] };
}
