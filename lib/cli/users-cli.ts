/**
 * `npm run admin -- users …`: the people of every company, as JSON a script can read (their list as a table unless
 * --json).
 */
import { resetSecondFactors } from "@/lib/admin/second-factor-reset";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expectArgs, unknownCommand, unreadableFile, UsageError, type CliContext } from "@/lib/cli/cli-arguments";
import { counted } from "@/lib/cli/english";
import { printList, tableDate, withoutJsonFlag } from "@/lib/cli/list-output";
import { progressReporter } from "@/lib/cli/progress";
import { importInvitations } from "@/lib/admin/invitation-import";
import { invitePerson } from "@/lib/admin/invitations";
import { parseEmail, parseLanguage, parseRole } from "@/lib/admin/person-fields";
import { activate, deactivate, listUsersJson, remove, unlock } from "@/lib/admin/user-registry";
import { setPasswordAsOperator } from "@/lib/account/password-change";
import { PasswordPolicyError } from "@/lib/crypto/password-policy";
import { LOCALES } from "@/lib/i18n/locales";
import english from "@/messages/en.json";

const LIST_USAGE = "users list [--company <id>] [--json]";
const INVITE_USAGE = `users invite <email> --company <id> [--role user|admin|developer] [--language ${LOCALES.join("|")}]`;

export const USERS_USAGE = `  ${INVITE_USAGE}
                                                invite a person: prints the link once and mails it
  users import <file.csv>                       invite many: header email,company,role,language; one bad row
                                                refuses the whole file
  users list [--company <id>] [--json]          list users and invited people with their company, role and status
                                                (invited, active, deactivated, locked)
  users deactivate <email>                      sign the user out everywhere and refuse them
  users activate <email>                        undo deactivate
  users unlock <email>                          lift the sign-in lock after failed attempts
  users remove <email>                          erase the user's personal data (the audit trail keeps a pseudonym);
                                                for an invited person, revoke the invitation
  users password <email>                        set the user's password, read from standard input (first line),
                                                under the password policy; ends their sessions, mails a notice
  users reset-second-factor <email>             remove the user's passkeys, authenticator app and recovery codes
                                                (a lost phone); mails a notice`;

/** `--name value` options, each allowed once, none other than `allowed`. */
function options(args: string[], allowed: string[], usage: string): Map<string, string> {
  const found = new Map<string, string>();
  for (let index = 0; index < args.length; index += 2) {
    const [flag, value] = [args[index], args[index + 1]];
    const name = flag.replace(/^--/, "");
    if (!flag.startsWith("--") || !allowed.includes(name))
      throw new UsageError(`unknown option ${flag}`, `usage: npm run admin -- ${usage}`);
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (found.has(name)) throw new UsageError(`${flag} is given twice`);
    found.set(name, value);
  }
  return found;
}

async function invite(context: CliContext, [email, ...rest]: string[]): Promise<unknown> {
  if (email === undefined || email.startsWith("--")) throw new UsageError("users invite needs <email>");
  const given = options(rest, ["company", "role", "language"], INVITE_USAGE);
  const companyId = given.get("company");
  if (!companyId) throw new UsageError("users invite needs --company <id>", `usage: npm run admin -- ${INVITE_USAGE}`);
  const request = {
    email: parseEmail(email),
    companyId,
    role: parseRole(given.get("role") ?? "user"),
    language: parseLanguage(given.get("language") ?? "en"),
  };
  const issued = await invitePerson({ stores: context.stores, config: context }, request);
  context.printError(`Invited ${issued.email}: the link is shown once here and mailed (see /admin/outbox).`);
  return issued;
}

async function importFile(context: CliContext, file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw unreadableFile(file, error);
  }
  // stdout is the JSON result, so the summary is the note on stderr.
  const label = `users import ${path.basename(file)}`;
  const progress = progressReporter(context.progress, {
    label,
    noun: "person",
    plural: "people",
    print: context.printError,
  });
  const { invited } = await progress.track((onProgress) =>
    importInvitations({ stores: context.stores, config: context }, text, { onProgress }),
  );
  progress.finish(`Invited ${counted(invited, "person", "people")}; their mail is in the outbox.`);
  return { invited };
}

async function setPassword(context: CliContext, email: string): Promise<unknown> {
  const password = (await context.readInput()).split(/\r?\n/)[0];
  const account = { stores: context.stores, config: context };
  let outcome;
  try {
    outcome = await setPasswordAsOperator(account, parseEmail(email), password);
  } catch (error) {
    if (!(error instanceof PasswordPolicyError)) throw error;
    const why = error.warning ? (english.Password.warnings as Record<string, string>)[error.warning] : undefined;
    throw new Error(`${error.message}${why ? ` (${why})` : ""}`, { cause: error });
  }
  if (!outcome) throw new Error(`there is no user "${email}"`);
  await context.announceLogout(outcome.endedSessions);
  return { email: parseEmail(email), status: "password_set", ended_sessions: outcome.endedSessions.length };
}

async function resetFactors(context: CliContext, email: string): Promise<unknown> {
  const reset = await resetSecondFactors({ stores: context.stores, config: context }, parseEmail(email));
  if (!reset) throw new Error(`there is no user "${email}"`);
  if (reset.removed === 0) context.printError(`${reset.email} had no second factor; nothing was changed.`);
  return { ...reset, status: reset.removed > 0 ? "second_factors_reset" : "unchanged" };
}

async function listUsers(context: CliContext, rest: string[]): Promise<void> {
  const { json, args } = withoutJsonFlag(rest);
  const users = await listUsersJson(context.stores, options(args, ["company"], LIST_USAGE).get("company"));
  printList(context.print, json, {
    json: users,
    header: ["EMAIL", "COMPANY", "ROLE", "STATUS", "LAST_SIGN_IN", "NAME"],
    rows: users.map((user) => [
      user.email,
      user.company,
      user.role,
      user.status,
      tableDate(user.last_sign_in_at),
      `${user.given_name} ${user.family_name}`.trim(),
    ]),
    empty: "No users.",
  });
}

export async function usersCommand(context: CliContext, [command, ...rest]: string[]): Promise<void> {
  const print = (value: unknown) => context.print(JSON.stringify(value, null, 2));
  const one = (usage: string) => expectArgs(rest, usage)[0];
  if (command === "invite") print(await invite(context, rest));
  else if (command === "import") print(await importFile(context, one("users import <file.csv>")));
  else if (command === "list") await listUsers(context, rest);
  else if (command === "deactivate")
    print(await deactivate(context.stores, one("users deactivate <email>"), context.announceLogout));
  else if (command === "activate") print(await activate(context.stores, one("users activate <email>")));
  else if (command === "unlock") print(await unlock(context.stores, one("users unlock <email>")));
  else if (command === "remove")
    print(await remove(context.stores, one("users remove <email>"), context.announceLogout));
  else if (command === "password") print(await setPassword(context, one("users password <email>")));
  else if (command === "reset-second-factor")
    print(await resetFactors(context, one("users reset-second-factor <email>")));
  else
    throw unknownCommand("users", command, [
      "invite",
      "import",
      "list",
      "deactivate",
      "activate",
      "unlock",
      "remove",
      "password",
      "reset-second-factor",
    ]);
}
