/** The prompt and max_age parameters of an authorization request (OpenID Connect Core §3.1.2.1). */
import { invalidRequest } from "@/lib/errors/oauth-error";

export type Prompt = "none" | "login" | "consent" | "select_account";

const PROMPTS: Prompt[] = ["none", "login", "consent", "select_account"];

export function parsePrompt(value: string | undefined): Set<Prompt> {
  const prompts = new Set<Prompt>();
  for (const item of (value ?? "").split(" ").filter(Boolean)) {
    if (!PROMPTS.includes(item as Prompt)) throw invalidRequest(`prompt "${item}" is not supported`);
    prompts.add(item as Prompt);
  }
  if (prompts.has("none") && prompts.size > 1)
    throw invalidRequest("prompt=none cannot be combined with other prompts");
  return prompts;
}

export function parseMaxAge(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value)) throw invalidRequest("max_age must be a non-negative whole number of seconds");
  return Number(value);
}
