/** `npm run admin -- keys …`: the signing keys, through the same functions as /manage/v1/keys (lib/admin). */
import { expectArgs, unknownCommand, UsageError, type CliContext } from "@/lib/cli/cli-arguments";
import {
  listSigningKeys,
  retireSigningKey,
  rotateSigningKeys,
  signingKeyJson,
  type SigningKeyInfo,
} from "@/lib/admin/signing-key-registry";
import { printList, tableDate, withoutJsonFlag } from "@/lib/cli/list-output";
import { isSigningAlgorithm, SIGNING_ALGORITHMS } from "@/lib/store/models/signing-key";

export const KEYS_USAGE = `  keys list [--json]                            list signing keys and until when they are published
  keys rotate [<alg>]                           new active signing keys (of every algorithm, or of RS256, ES256 or
                                                PS256); old ones stay published until their tokens expire
  keys retire <kid>                             take a superseded key out of the JWKS now (a leaked key): the
                                                tokens it signed stop verifying; the active key cannot be retired
  keys reseal                                   seal stored private keys, app and SSO client secrets and queued mail under the newest SECRET_KEYS key`;

function stateText(key: SigningKeyInfo): string {
  return key.state === "published" ? `published until ${tableDate(key.retiredAt)}` : key.state;
}

async function listKeys(context: CliContext, json: boolean): Promise<void> {
  const keys = await listSigningKeys(context.stores);
  printList(context.print, json, {
    json: keys.map(signingKeyJson),
    header: ["ALGORITHM", "KID", "CREATED", "STATE"],
    rows: keys.map((key) => [key.alg, key.kid, tableDate(key.createdAt), stateText(key)]),
    empty: "No signing keys.",
  });
}

async function rotateKeys(context: CliContext, alg: string | undefined): Promise<void> {
  if (alg !== undefined && !isSigningAlgorithm(alg))
    throw new UsageError(`"${alg}" is no signing algorithm of OptiGate (${SIGNING_ALGORITHMS.join(", ")})`);
  for (const { alg: algorithm, kid, superseded } of await rotateSigningKeys(context.stores, context.secretKey, alg))
    context.print(
      `${algorithm}: new active key ${kid}${superseded.length ? `; ${superseded.join(", ")} stays published until its tokens have expired` : ""}`,
    );
}

export async function keysCommand(context: CliContext, [command, ...rest]: string[]): Promise<void> {
  if (command === "rotate") {
    if (rest.length > 1) expectArgs(rest, "keys rotate [<alg>]");
    return rotateKeys(context, rest[0]);
  }
  if (command === "list") {
    const { json, args } = withoutJsonFlag(rest);
    expectArgs(args, "keys list [--json]");
    return listKeys(context, json);
  }
  if (command === "retire") {
    const [kid] = expectArgs(rest, "keys retire <kid>");
    await retireSigningKey(context.stores, kid);
    return context.print(`Retired key ${kid}: it is no longer published, and the tokens it signed no longer verify.`);
  }
  if (command === "reseal") {
    expectArgs(rest, "keys reseal");
    for (const [kind, counts] of Object.entries(await context.stores.maintenance.resealSecrets(context.secretKey)))
      context.print(
        `${kind}: ${counts.resealed} sealed anew, ${counts.current} under the newest key already` +
          (counts.unreadable ? `, ${counts.unreadable} sealed under a key SECRET_KEYS no longer lists` : ""),
      );
    return;
  }
  throw unknownCommand("keys", command, ["list", "rotate", "retire", "reseal"]);
}
