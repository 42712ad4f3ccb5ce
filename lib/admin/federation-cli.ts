/** `npm run admin -- federation …` (CONTRACT §8): the trusted issuers and the links of their subjects. */
import { expectArgs, readJsonFile, UsageError } from "@/lib/admin/cli-arguments";
import { addTrustedIssuer, linkSubject, listTrustedIssuers, removeTrustedIssuer } from "@/lib/admin/federation-registry";
import { parseTrustedIssuer } from "@/lib/admin/trusted-issuer-metadata";
import type { Db } from "@/lib/db/prisma";

export const FEDERATION_USAGE = `  federation add <file.json>                    trust an issuer: {"issuer", "jwks_uri" or "jwks", "clients": [ids],
                                                "subject": "email" | "link"}; replaces an earlier registration
  federation list                               list the trusted issuers
  federation remove <issuer>                    stop trusting an issuer (its links go too)
  federation link <issuer> <subject> <username> the issuer's subject is this local user (issuers with "subject": "link")`;

export async function federationCommand(context: { db: Db; production: boolean; print: (line: string) => void }, [command, ...rest]: string[]): Promise<void> {
  if (command === "add") {
    const [file] = expectArgs(rest, 1);
    const registration = parseTrustedIssuer(await readJsonFile(file), { production: context.production });
    const outcome = await addTrustedIssuer(context.db, registration);
    context.print(`${outcome === "added" ? "Trusted" : "Updated"} issuer ${registration.issuer} for ${registration.clientIds.join(", ")} (subjects by ${registration.subjectMapping}).`);
  } else if (command === "list") {
    expectArgs(rest, 0);
    const issuers = await listTrustedIssuers(context.db);
    if (issuers.length === 0) context.print("No trusted issuers.");
    for (const issuer of issuers) {
      context.print(`${issuer.issuer}  keys: ${issuer.jwksUri ?? `inline (${issuer.jwks!.keys.length})`}  clients: ${issuer.clientIds.join(",")}  subject: ${issuer.subjectMapping}${issuer.subjectMapping === "link" ? ` (${issuer.linkedSubjects} linked)` : ""}`);
    }
  } else if (command === "remove") {
    const [issuer] = expectArgs(rest, 1);
    await removeTrustedIssuer(context.db, issuer);
    context.print(`Removed trusted issuer ${issuer}.`);
  } else if (command === "link") {
    const [issuer, subject, username] = expectArgs(rest, 3);
    await linkSubject(context.db, issuer, subject, username);
    context.print(`Linked ${subject} at ${issuer} to ${username}.`);
  } else {
    throw new UsageError(`unknown command "federation ${command ?? ""}"`);
  }
}
