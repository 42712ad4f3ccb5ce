/**
 * `npm run admin -- companies sso …` and `companies domains …`: a company's own identity provider and the email
 * domains whose sign-in goes there, as JSON a script can read (the domains' list as a table unless --json); notes for
 * the person at the terminal go to stderr.
 */
import { expectArgs, readJsonFile, unknownCommand, UsageError, type CliContext } from "@/lib/cli/cli-arguments";
import { printList, withoutJsonFlag } from "@/lib/cli/list-output";
import { parseCompanySso } from "@/lib/admin/company-sso-metadata";
import {
  removeCompanySso,
  setCompanySso,
  showCompanySso,
  switchCompanySso,
  type CompanySsoJson,
} from "@/lib/admin/company-sso-registry";
import {
  addCompanyDomain,
  listCompanyDomains,
  removeCompanyDomain,
  verifyCompanyDomain,
} from "@/lib/admin/company-domains";

export const COMPANY_SSO_USAGE = `  companies sso set <id> <file.json>            sign the company's people in at its OpenID Connect provider:
                                                {"issuer", "client_id", "client_secret", optional "scope",
                                                "token_endpoint_auth_method" (client_secret_basic, _post, or
                                                private_key_jwt: no secret, OptiGate's key), "claims",
                                                "hosted_domain", "tenant_id", "sso_only", "enabled" (true unless
                                                false)}; an omitted client_secret keeps the stored one
                                                while issuer, client_id and token_endpoint_auth_method stay
  companies sso show <id>                       show the company's provider (never its secret)
  companies sso enable|disable <id>             turn sign-in at the provider on or off
  companies sso remove <id>                     remove the provider: its people sign in with passwords again
  companies domains add <id> <domain> [--verified]
                                                claim an email domain for the company: prints the DNS TXT record
                                                that proves it, or with --verified vouches for it at once
  companies domains verify <domain>             look the domain's DNS TXT record up and mark it verified
  companies domains list <id> [--json]          the company's domains, verified or not
  companies domains remove <domain>             give up a domain`;

const DOMAINS_ADD_USAGE = "companies domains add <id> <domain> [--verified]";

type Context = Pick<CliContext, "stores" | "production" | "outboundAllow" | "secretKey" | "dnsLookup">;
type Output = Pick<CliContext, "print" | "printError">;

async function setSso(context: Context & Output, companyId: string, file: string): Promise<CompanySsoJson> {
  const write = parseCompanySso(await readJsonFile(file), context);
  const sso = await setCompanySso(
    context.stores,
    companyId,
    { ...write, enabled: write.enabled ?? true },
    { secretKey: context.secretKey, byOperator: true },
  );
  const domains = await listCompanyDomains(context.stores, companyId);
  if (sso.enabled && !domains.some((domain) => domain.verified))
    context.printError(
      `Note: company "${companyId}" has no verified domain yet, so nobody signs in there: run companies domains add.`,
    );
  return sso;
}

export async function companySsoCommand(context: Context & Output, [command, ...rest]: string[]): Promise<void> {
  const print = (value: unknown) => context.print(JSON.stringify(value, null, 2));
  if (command === "set") {
    const [companyId, file] = expectArgs(rest, "companies sso set <id> <file.json>");
    print(await setSso(context, companyId, file));
  } else if (command === "show") {
    print(await showCompanySso(context.stores, expectArgs(rest, "companies sso show <id>")[0]));
  } else if (command === "enable" || command === "disable") {
    const [companyId] = expectArgs(rest, `companies sso ${command} <id>`);
    print(await switchCompanySso(context.stores, companyId, command === "enable"));
  } else if (command === "remove") {
    const [companyId] = expectArgs(rest, "companies sso remove <id>");
    await removeCompanySso(context.stores, companyId);
    print({ company_id: companyId, status: "removed" });
  } else {
    throw unknownCommand("companies sso", command, ["set", "show", "enable", "disable", "remove"]);
  }
}

/** `<id> <domain>` and whether `--verified` was given (once, and no other option). */
function domainsAddArguments(rest: string[]): { companyId: string; domain: string; verified: boolean } {
  const args = rest.filter((arg) => arg !== "--verified");
  const hint = `usage: npm run admin -- ${DOMAINS_ADD_USAGE}`;
  if (rest.length - args.length > 1) throw new UsageError("--verified is given twice", hint);
  const option = args.find((arg) => arg.startsWith("--"));
  if (option !== undefined) throw new UsageError(`unknown option ${option}`, hint);
  const [companyId, domain] = expectArgs(args, DOMAINS_ADD_USAGE);
  return { companyId, domain, verified: args.length < rest.length };
}

export async function companyDomainsCommand(context: Context & Output, [command, ...rest]: string[]): Promise<void> {
  const print = (value: unknown) => context.print(JSON.stringify(value, null, 2));
  if (command === "add") {
    const { companyId, domain, verified } = domainsAddArguments(rest);
    const added = await addCompanyDomain(context.stores, companyId, domain, { verified, byOperator: true });
    if (added.dns_record)
      context.printError(
        `To prove the domain, create the DNS record ${added.dns_record.name} TXT "${added.dns_record.value}", then ` +
          `run: npm run admin -- companies domains verify ${added.domain}`,
      );
    print(added);
  } else if (command === "verify") {
    const [domain] = expectArgs(rest, "companies domains verify <domain>");
    print(await verifyCompanyDomain(context.stores, domain, context.dnsLookup));
  } else if (command === "list") {
    const { json, args } = withoutJsonFlag(rest);
    const domains = await listCompanyDomains(
      context.stores,
      expectArgs(args, "companies domains list <id> [--json]")[0],
    );
    printList(context.print, json, {
      json: domains,
      header: ["DOMAIN", "STATUS", "DNS_RECORD_TO_CREATE"],
      rows: domains.map(({ domain, verified_by, dns_record }) => [
        domain,
        verified_by ? `verified (${verified_by})` : "not verified",
        dns_record ? `${dns_record.name} TXT "${dns_record.value}"` : "",
      ]),
      empty: "No domains.",
    });
  } else if (command === "remove") {
    print(await removeCompanyDomain(context.stores, expectArgs(rest, "companies domains remove <domain>")[0]));
  } else {
    throw unknownCommand("companies domains", command, ["add", "verify", "list", "remove"]);
  }
}
