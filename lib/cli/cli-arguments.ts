/** What the operator CLI's commands share: their context, usage errors, arguments, files. */
import type { DataAccess } from "@/lib/service-context";
import type { AddressRanges } from "@/lib/config/address-ranges";
import type { PasswordBreachConfig } from "@/lib/config/password-breach-config";
import { closestName } from "@/lib/errors/did-you-mean";
import { OptiGateError } from "@/lib/errors/optigate-error";
import { listed } from "@/lib/cli/english";
import type { ProgressStream } from "@/lib/cli/progress";
import type { TxtLookup } from "@/lib/admin/domain-verification";
import { readFile } from "node:fs/promises";

export interface CliContext extends DataAccess {
  apiScopePrefix: string;
  /** Production rules for registrations (key set URLs and issuers over https only). */
  production: boolean;
  /** Ranges exempt from the public-address rule for registrations (OUTBOUND_ALLOW). */
  outboundAllow: AddressRanges;
  /** Ranges exempt from it for catalog pulls (CATALOG_PULL_ALLOW), as on the catalog page. */
  catalogPullAllow: AddressRanges;
  secretKey: string;
  /** the base of the links mail and output carry (PUBLIC_URL) */
  publicUrl: string;
  /** stdout: the result, which scripts may parse. */
  print: (line: string) => void;
  /** stderr: errors, and notes for the person at the terminal that must not mix with the result. */
  printError: (line: string) => void;
  /** stderr as a stream: long jobs draw their progress there when it is a terminal (lib/cli/progress.ts). */
  progress: ProgressStream;
  /** Tells the applications, through their back channel, that these sessions were ended. */
  announceLogout: (sessionIds: string[]) => Promise<void>;
  /** The shortest password accepted (PASSWORD_MIN_LENGTH). */
  passwordMinLength: number;
  /** Where new passwords are looked up among breached ones (PASSWORD_BREACH_CHECK); null: nowhere. */
  passwordBreach: PasswordBreachConfig | null;
  /** Days audit events are kept; `purge` removes older ones (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  /** Standard input, whole: where a password is read from, never the command line (other users can see that). */
  readInput: () => Promise<string>;
  /** How `companies domains verify` looks DNS TXT records up; the system's resolvers when not given (tests give theirs). */
  dnsLookup?: TxtLookup;
}

/** Wrong arguments: exit code 2, as is customary for usage errors. `hint` replaces the pointer to the help. */
export class UsageError extends OptiGateError<"usage"> {
  readonly code = "usage";

  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * The arguments of a command whose usage is `usage` (`catalogs release <supplierID> <catalogID> <revision>`,
 * options in brackets not counted); a missing one is named, and one too many is shown.
 */
export function expectArgs(args: string[], usage: string): string[] {
  const names = usage.replace(/\[[^\]]*\]/g, "").match(/<[^>]+>/g) ?? [];
  const command = usage.replace(/\s*[<[].*$/, "");
  const hint = `usage: npm run admin -- ${usage}`;
  if (args.length < names.length) throw new UsageError(`${command} needs ${listed(names.slice(args.length))}`, hint);
  if (args.length > names.length) {
    const extra = args.slice(names.length).map((arg) => `"${arg}"`);
    throw new UsageError(`unexpected ${extra.length === 1 ? "argument" : "arguments"} ${listed(extra)}`, hint);
  }
  return args;
}

/** A command of `group` that is missing or unknown, with the closest known one as a suggestion. */
export function unknownCommand(group: string, given: string | undefined, commands: readonly string[]): UsageError {
  if (given === undefined) return new UsageError(`${group} needs a command: ${commands.join(", ")}`);
  const closest = closestName(given, commands);
  return new UsageError(
    `unknown command "${group} ${given}"`,
    closest ? `did you mean "${group} ${closest}"?` : undefined,
  );
}

/** One line for a file that cannot be read, naming the usual causes in words rather than an error code. */
export function unreadableFile(file: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === "ENOENT"
      ? `file not found: ${file}`
      : code === "EACCES" || code === "EPERM"
        ? `no permission to read ${file}`
        : code === "EISDIR"
          ? `${file} is a folder, not a file`
          : `cannot read ${file}: ${(error as Error).message}`;
  return new Error(reason, { cause: error });
}

export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw unreadableFile(file, error);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}
