/** `npm run admin -- companies …`: the companies, as JSON a script can read (their list as a table unless --json). */
import { expectArgs, readJsonFile, unknownCommand, UsageError, type CliContext } from "@/lib/cli/cli-arguments";
import { parseCompany } from "@/lib/admin/company-metadata";
import { counted } from "@/lib/cli/english";
import { printList, withoutJsonFlag } from "@/lib/cli/list-output";
import { COMPANY_SSO_USAGE, companyDomainsCommand, companySsoCommand } from "@/lib/cli/company-sso-cli";
import {
  activate,
  addCompany,
  deactivate,
  listCompanies,
  requireSecondFactor,
  showCompany,
  switchSignInNotices,
  updateCompany,
} from "@/lib/admin/company-registry";

export const COMPANIES_USAGE = `  companies add <file.json>                     add a company: {"kind", "name", "country", optional "id"; suppliers
                                                also "supplier_id", "name1", "name2", "portal_url", "web_services"}
  companies list [--json]                       list the companies
  companies show <id>                           show a company
  companies update <id> <file.json>             replace a company's description (its kind stays)
  companies deactivate <id>                     sign its users out everywhere and refuse them; a supplier's
                                                catalogs are no longer listed or downloadable
  companies activate <id>                       undo deactivate (users deactivated on their own stay so)
  companies require-second-factor <id> on|off   require a second factor of everyone in the company (or not)
  companies sign-in-notices <id> on|off         mail its people of sign-ins from browsers new to their accounts
${COMPANY_SSO_USAGE}`;

/** A company's switch: its id, and on (true) or off. */
function switchArgs(rest: string[], command: string): [string, boolean] {
  const [id, setting] = expectArgs(rest, `companies ${command} <id> <on|off>`);
  if (setting !== "on" && setting !== "off") throw new UsageError(`say on or off, not "${setting}"`);
  return [id, setting === "on"];
}

export async function companiesCommand(context: CliContext, [command, ...rest]: string[]): Promise<void> {
  const print = (value: unknown) => context.print(JSON.stringify(value, null, 2));
  if (command === "add") {
    const [file] = expectArgs(rest, "companies add <file.json>");
    print(await addCompany(context.stores, parseCompany(await readJsonFile(file))));
  } else if (command === "list") {
    const { json, args } = withoutJsonFlag(rest);
    expectArgs(args, "companies list [--json]");
    const companies = await listCompanies(context.stores);
    printList(context.print, json, {
      json: companies,
      header: ["ID", "KIND", "COUNTRY", "SUPPLIER_ID", "STATUS", "NAME"],
      rows: companies.map((company) => [
        company.id,
        company.kind,
        company.country ?? "-",
        company.supplier_id ?? "-",
        company.active ? "active" : "deactivated",
        company.name,
      ]),
      empty: "No companies.",
    });
  } else if (command === "show") {
    const [id] = expectArgs(rest, "companies show <id>");
    print(await showCompany(context.stores, id));
  } else if (command === "update") {
    const [id, file] = expectArgs(rest, "companies update <id> <file.json>");
    print(await updateCompany(context.stores, id, parseCompany(await readJsonFile(file))));
  } else if (command === "deactivate") {
    const [id] = expectArgs(rest, "companies deactivate <id>");
    const { company, users } = await deactivate(context.stores, id, context.announceLogout);
    context.printError(`Deactivated ${company.name}: ${counted(users, "user")} signed out and refused.`);
    print(company);
  } else if (command === "activate") {
    const [id] = expectArgs(rest, "companies activate <id>");
    const { company, users } = await activate(context.stores, id);
    context.printError(`Activated ${company.name} and ${counted(users, "user")} deactivated with it.`);
    print(company);
  } else if (command === "require-second-factor") {
    const [id, setting] = switchArgs(rest, "require-second-factor");
    print(
      await requireSecondFactor(context.stores, id, { required: setting, byOperator: true }, context.announceLogout),
    );
  } else if (command === "sign-in-notices") {
    const [id, setting] = switchArgs(rest, "sign-in-notices");
    print(await switchSignInNotices(context.stores, id, setting));
  } else if (command === "sso") {
    await companySsoCommand(context, rest);
  } else if (command === "domains") {
    await companyDomainsCommand(context, rest);
  } else {
    throw unknownCommand("companies", command, [
      "add",
      "list",
      "show",
      "update",
      "deactivate",
      "activate",
      "require-second-factor",
      "sign-in-notices",
      "sso",
      "domains",
    ]);
  }
}
