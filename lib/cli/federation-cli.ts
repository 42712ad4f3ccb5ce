/** `npm run admin -- federation …`: the trusted issuers and the links of their subjects. */
import { expectArgs, readJsonFile, unknownCommand, type CliContext } from "@/lib/cli/cli-arguments";
import { addTrustedIssuer, linkSubject, removeTrustedIssuer, trustedIssuerJson } from "@/lib/admin/federation-registry";
import { printList, withoutJsonFlag } from "@/lib/cli/list-output";
import { parseTrustedIssuer } from "@/lib/admin/trusted-issuer-metadata";
import type { IssuerReach } from "@/lib/store/models/trusted-issuer";

export const FEDERATION_USAGE = `  federation add <file.json>                    trust an issuer: {"issuer", "jwks_uri" or "jwks", "clients": [ids],
                                                "subject": "email" | "link", whom it speaks for: "companies":
                                                [company ids] and/or "email_domains": [domains]}; replaces an
                                                earlier registration
  federation list [--json]                      list the trusted issuers
  federation remove <issuer>                    stop trusting an issuer (its links go too)
  federation link <issuer> <subject> <username> the issuer's subject is this local user (issuers with "subject": "link")`;

function describeReach(reach: IssuerReach | null): string {
  if (!reach) return "nobody yet (refused until companies or email_domains are set: run federation add again)";
  const parts = [
    reach.companies.length > 0 ? `companies ${reach.companies.join(",")}` : "",
    reach.emailDomains.length > 0 ? `email domains ${reach.emailDomains.join(",")}` : "",
  ];
  return parts.filter(Boolean).join(" and ");
}

export async function federationCommand(
  context: Pick<CliContext, "stores" | "production" | "outboundAllow" | "print">,
  [command, ...rest]: string[],
): Promise<void> {
  if (command === "add") {
    const [file] = expectArgs(rest, "federation add <file.json>");
    const registration = parseTrustedIssuer(await readJsonFile(file), context);
    const outcome = await addTrustedIssuer(context.stores, registration);
    context.print(
      `${outcome === "added" ? "Trusted" : "Updated"} issuer ${registration.issuer} for ${registration.clientIds.join(", ")} (subjects by ${registration.subjectMapping}; speaks for ${describeReach(registration.reach)}).`,
    );
  } else if (command === "list") {
    const { json, args } = withoutJsonFlag(rest);
    expectArgs(args, "federation list [--json]");
    const issuers = await context.stores.trustedIssuers.list();
    printList(context.print, json, {
      json: issuers.map(trustedIssuerJson),
      header: ["ISSUER", "SUBJECT", "CLIENTS", "KEYS", "SPEAKS_FOR"],
      rows: issuers.map((issuer) => [
        issuer.issuer,
        issuer.subjectMapping === "link" ? `link (${issuer.linkedSubjects} linked)` : issuer.subjectMapping,
        issuer.clientIds.join(","),
        issuer.jwksUri ?? `inline (${issuer.jwks!.keys.length})`,
        describeReach(issuer.reach),
      ]),
      empty: "No trusted issuers.",
    });
  } else if (command === "remove") {
    const [issuer] = expectArgs(rest, "federation remove <issuer>");
    await removeTrustedIssuer(context.stores, issuer);
    context.print(`Removed trusted issuer ${issuer}.`);
  } else if (command === "link") {
    const [issuer, subject, username] = expectArgs(rest, "federation link <issuer> <subject> <username>");
    await linkSubject(context.stores, issuer, subject, username);
    context.print(`Linked ${subject} at ${issuer} to ${username}.`);
  } else {
    throw unknownCommand("federation", command, ["add", "list", "remove", "link"]);
  }
}
