/** `npm run admin -- users …` (CONTRACT §9): the people of every company, as JSON a script can read. */
import { expectArgs, unknownCommand, UsageError, type CliContext } from "@/lib/cli/cli-arguments";
import { activate, deactivate, listUsersJson, unlock } from "@/lib/admin/user-registry";

export const USERS_USAGE = `  users list [--company <id>]                   list users with their company, role and status (active,
                                                deactivated, locked)
  users deactivate <email>                      sign the user out everywhere and refuse them
  users activate <email>                        undo deactivate
  users unlock <email>                          lift the sign-in lock after failed attempts`;

/** `--company <id>`, the only option of `users list`. */
function companyOption(args: string[]): string | undefined {
  if (args.length === 0) return undefined;
  const [flag, value, ...extra] = args;
  if (flag !== "--company") throw new UsageError(`unknown option ${flag} (users list takes --company <id>)`);
  if (value === undefined) throw new UsageError("--company needs a company id");
  expectArgs(extra, "users list [--company <id>]");
  return value;
}

export async function usersCommand(context: CliContext, [command, ...rest]: string[]): Promise<void> {
  const print = (value: unknown) => context.print(JSON.stringify(value, null, 2));
  if (command === "list") {
    print(await listUsersJson(context.db, companyOption(rest)));
  } else if (command === "deactivate") {
    const [email] = expectArgs(rest, "users deactivate <email>");
    print(await deactivate(context.db, email, context.announceLogout));
  } else if (command === "activate") {
    const [email] = expectArgs(rest, "users activate <email>");
    print(await activate(context.db, email));
  } else if (command === "unlock") {
    const [email] = expectArgs(rest, "users unlock <email>");
    print(await unlock(context.db, email));
  } else {
    throw unknownCommand("users", command, ["list", "deactivate", "activate", "unlock"]);
  }
}
