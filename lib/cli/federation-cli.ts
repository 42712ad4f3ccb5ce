/** `npm run admin -- federation …`: the trusted issuers and the links of their subjects. */
import { expectArgs, readJsonFile, unknownCommand, type CliContext } from "@/lib/cli/cli-arguments";
import { addTrustedIssuer, linkSubject, removeTrustedIssuer } from "@/lib/admin/federation-registry";
import { parseTrustedIssuer } from "@/lib/admin/trusted-issuer-metadata";
import type { IssuerReach } from "@/lib/store/models/trusted-issuer";

export const FEDERATION_USAGE = `  federation add <file.json>                    trust an issuer: {"issuer", "jwks_uri" or "jwks", "clients": [ids],
                                                "subject": "email" | "link", whom it speaks for: "companies":
                                                [company ids] and/or "email_domains": [domains]}; replaces an
                                                earlier registration
  federation list                               list the trusted issuers
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
    expectArgs(rest, "federation list");
    const issuers = await context.stores.trustedIssuers.list();
    if (issuers.length === 0) context.print("No trusted issuers.");
    for (const issuer of issuers) {
      context.print(
        `${issuer.issuer}  keys: ${issuer.jwksUri ?? `inline (${issuer.jwks!.keys.length})`}  clients: ${issuer.clientIds.join(",")}  subject: ${issuer.subjectMapping}${issuer.subjectMapping === "link" ? ` (${issuer.linkedSubjects} linked)` : ""}  speaks for: ${describeReach(issuer.reach)}`,
      );
    }
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
