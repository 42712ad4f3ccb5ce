/**
 * Reading the API's input strictly: query parameters the route knows, each at most once; JSON bodies of at most
 * 64 KB with a JSON media type; objects without unknown members. Anything else is a 4xx problem naming the problem.
 */
import { MAX_JSON_BYTES } from "@/lib/config/policy";
import { ApiProblem } from "@/lib/errors/api-problem";
import { BodyTooLargeError, NulCharacterError, readBodyText } from "@/lib/http/form-body";

/** The route's query parameters; unknown or repeated ones are refused. */
export function queryParameters(url: URL, known: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of url.searchParams) {
    if (!known.includes(name))
      throw new ApiProblem(
        "bad-request",
        `Unknown query parameter "${name}"${known.length ? `; this route takes ${known.join(", ")}` : ""}.`,
      );
    if (values.has(name)) throw new ApiProblem("bad-request", `The query parameter "${name}" must not be repeated.`);
    values.set(name, value);
  }
  return values;
}

/** A whole number in [min, max], or the default when absent. */
export function wholeNumberParameter(
  name: string,
  value: string | undefined,
  range: { min: number; max: number; default?: number },
): number | undefined {
  if (value === undefined) return range.default;
  if (!/^\d{1,10}$/.test(value) || Number(value) < range.min || Number(value) > range.max) {
    throw new ApiProblem(
      "bad-request",
      `${name} must be a whole number from ${range.min} to ${range.max} (got "${value.slice(0, 40)}").`,
    );
  }
  return Number(value);
}

const JSON_MEDIA_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** The request's JSON object. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (!JSON_MEDIA_TYPE.test(type.trim()))
    throw new ApiProblem(
      "unsupported-media-type",
      `Send the body as application/json (got ${type ? `"${type.slice(0, 80)}"` : "no Content-Type"}).`,
    );
  let text: string;
  try {
    text = await readBodyText(request, MAX_JSON_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new ApiProblem("payload-too-large", `The body must be at most ${MAX_JSON_BYTES} bytes.`);
    if (error instanceof NulCharacterError) throw new ApiProblem("bad-request", error.message);
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiProblem("bad-request", `The body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ApiProblem("bad-request", "The body must be a JSON object.");
  return value as Record<string, unknown>;
}

/** Refuses members the route does not know (a typo must not be ignored). */
export function onlyMembers(object: Record<string, unknown>, known: readonly string[], where = "The body"): void {
  const unknown = Object.keys(object).find((name) => !known.includes(name));
  if (unknown !== undefined)
    throw new ApiProblem(
      "bad-request",
      `${where} has an unknown member "${unknown.slice(0, 60)}"; it takes ${known.join(", ")}.`,
    );
}

export function stringMember(object: Record<string, unknown>, name: string, where = "The body"): string {
  const value = object[name];
  if (typeof value !== "string") throw new ApiProblem("bad-request", `${where} needs "${name}" as a string.`);
  return value;
}

export function stringListMember(object: Record<string, unknown>, name: string, where = "The body"): string[] {
  const value = object[name];
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === "string"))
    throw new ApiProblem("bad-request", `${where} needs "${name}" as a list of strings.`);
  return value;
}
