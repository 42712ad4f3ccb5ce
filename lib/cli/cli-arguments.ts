/** What the operator CLI's commands share: usage errors, argument counts, JSON files. */
import { OptiGateError } from "@/lib/errors/optigate-error";
import { readFile } from "node:fs/promises";

/** Wrong arguments: exit code 2, as is customary for usage errors. */
export class UsageError extends OptiGateError<"usage"> {
  readonly code = "usage";
}

export function expectArgs(args: string[], count: number): string[] {
  if (args.length !== count) throw new UsageError(`expected ${count} argument(s), got ${args.length}`);
  return args;
}

export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      cause: error,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}
