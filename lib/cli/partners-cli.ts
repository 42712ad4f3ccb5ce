/** `npm run admin -- partners …` and the review of vendors' applications (`clients approve|reject`). */
import {
  issueInitialAccessToken,
  revokeAccessToken,
  setPartnerResources,
  setPartnerSandbox,
  setPartnerScopes,
} from "@/lib/admin/partner-access";
import { registrationResponse, reviewApplication } from "@/lib/admin/partner-applications";
import { expectArgs, unknownCommand, UsageError, type CliContext } from "@/lib/cli/cli-arguments";
import { parseInstant } from "@/lib/http/calendar-instant";

export const PARTNERS_USAGE = `  partners token <company> [--expires <day>]   an initial access token for RFC 7591 registration by the
                                                software vendor (shown once; 30 days unless --expires)
  partners revoke <token-id>                    revoke an initial access token
  partners scopes <company> [<scope> ...]       the platform scopes the vendor's applications may ask for
  partners resources <company> [<uri> ...]      the vendor's own APIs its applications may ask tokens for (RFC 8707)
  partners sandbox <company> on|off             whether its applications may sign in its own people before approval
  clients approve <client_id>                   approve a vendor's pending application or change
  clients reject <client_id> --reason <text>    reject it, saying why`;

const TOKEN_USAGE = "partners token <company> [--expires <day>]";

function expiryOption(args: string[]): Date | undefined {
  if (args.length === 0) return undefined;
  const [flag, value] = args;
  if (flag !== "--expires" || value === undefined || args.length > 2)
    throw new UsageError(`unexpected ${args.join(" ")}`, `usage: npm run admin -- ${TOKEN_USAGE}`);
  const date = parseInstant(value, "last-second");
  if (!date)
    throw new UsageError(
      `--expires needs an ISO 8601 date (YYYY-MM-DD, or an RFC 3339 date-time) within the years 1…9999, got "${value}"`,
    );
  return date;
}

export async function partnersCommand(context: CliContext, [command, ...rest]: string[]): Promise<void> {
  const print = (value: unknown) => context.print(JSON.stringify(value, null, 2));
  if (command === "token") {
    const [companyId, ...options] = rest;
    if (companyId === undefined || companyId.startsWith("--")) throw new UsageError(`${TOKEN_USAGE} needs <company>`);
    const issued = await issueInitialAccessToken(context.stores, companyId, expiryOption(options));
    context.printError("Save the initial_access_token now: it is shown only this once (OptiGate keeps its hash).");
    return print(issued);
  }
  if (command === "revoke")
    return print(await revokeAccessToken(context.stores, expectArgs(rest, "partners revoke <token-id>")[0]));
  if (command === "scopes") {
    const [companyId, ...scopes] = rest;
    if (companyId === undefined) throw new UsageError("partners scopes needs <company>");
    return print(await setPartnerScopes(context.stores, companyId, scopes, context.apiScopePrefix));
  }
  if (command === "resources") {
    const [companyId, ...resources] = rest;
    if (companyId === undefined) throw new UsageError("partners resources needs <company>");
    return print(await setPartnerResources(context.stores, companyId, resources));
  }
  if (command === "sandbox") {
    const [companyId, setting] = expectArgs(rest, "partners sandbox <company> <on|off>");
    if (setting !== "on" && setting !== "off")
      throw new UsageError(`partners sandbox takes on or off, got "${setting}"`);
    return print(await setPartnerSandbox(context.stores, companyId, setting === "on"));
  }
  throw unknownCommand("partners", command, ["token", "revoke", "scopes", "resources", "sandbox"]);
}

/** `clients approve <id>` and `clients reject <id> --reason <text>`. */
export async function reviewCommand(
  context: CliContext,
  decision: "approve" | "reject",
  args: string[],
): Promise<void> {
  const partnerContext = { stores: context.stores, config: context };
  const [clientId, flag, reason, ...extra] = args;
  if (clientId === undefined) throw new UsageError(`clients ${decision} needs <client_id>`);
  if (decision === "reject" && (flag !== "--reason" || !reason?.trim() || extra.length > 0))
    throw new UsageError("clients reject needs --reason <text>");
  if (decision === "approve" && flag !== undefined) throw new UsageError("clients approve takes only <client_id>");
  const reviewed = await reviewApplication(
    partnerContext,
    clientId,
    decision === "approve" ? { approve: true } : { approve: false, reason: reason.trim().slice(0, 1000) },
  );
  context.print(JSON.stringify(registrationResponse(reviewed, context.publicUrl), null, 2));
}
