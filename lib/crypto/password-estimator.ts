/**
 * How guessable a password is, estimated by zxcvbn-ts against its common, English and German dictionaries (leaked and
 * common passwords, words, names, keyboard patterns, dates) and the person's own name, email and company. The same
 * module runs in the browser for the strength meter and on the server for the decision, so both always agree.
 * The dictionaries (about 40 MB of a server's heap) load and build once, at the first estimate (about 0.2 s): a
 * process that never checks a new password never holds them.
 */
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/**
 * At least 10^9 guesses, as zxcvbn estimates them: between its scores 3 and 4. Against OptiGate's scrypt hashes (0.3 s
 * each) that is about ten years of one computer per password; every dictionary password, and the usual variations
 * of one (a word with a year and "!", such as "Passwort2024!" at 10^8.1), stays below it.
 */
export const ACCEPTED_GUESSES_LOG10 = 9;

/** 0 to 2: refused (very weak, weak, not strong enough); 3 and 4: accepted (good, strong). */
export type Score = 0 | 1 | 2 | 3 | 4;

export interface Strength {
  score: Score;
  accepted: boolean;
  /** zxcvbn's warning key (such as "common" or "userInputs"), or null */
  warning: string | null;
}

/** What a person could use of themselves in a password. */
export interface PersonalWords {
  givenName?: string;
  familyName?: string;
  email?: string;
  companyName?: string;
}

/**
 * zxcvbn's work grows steeply with length and with leet variants: a 256-character password took seconds of CPU. Only
 * the first 64 characters are estimated (longer ones are judged by them) and leet variants are tried for up to 10
 * substitutions, which keeps the worst case near 0.1 s on the server and between keystrokes in the browser.
 */
const ESTIMATED_LENGTH = 64;
const L33T_MAX_SUBSTITUTIONS = 10;

let estimator: Promise<ZxcvbnFactory> | undefined;

/** A user's words, as the server and the page's meter both read them. */
export function personalWordsOf(user: {
  givenName: string;
  familyName: string;
  email: string;
  company: { name: string };
}): PersonalWords {
  return { givenName: user.givenName, familyName: user.familyName, email: user.email, companyName: user.company.name };
}

async function buildEstimator(): Promise<ZxcvbnFactory> {
  const [{ ZxcvbnFactory }, common, en, de] = await Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-en"),
    import("@zxcvbn-ts/language-de"),
  ]);
  return new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary, ...de.dictionary },
    graphs: common.adjacencyGraphs,
    maxLength: ESTIMATED_LENGTH,
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
  });
}

function estimatorOnce(): Promise<ZxcvbnFactory> {
  // A failed load is not kept: the next estimate tries again.
  estimator ??= buildEstimator().catch((error: unknown) => {
    estimator = undefined;
    throw error;
  });
  return estimator;
}

/** The words of a person's names, email address and company, alone and run together. */
export function personalInputs(person: PersonalWords): string[] {
  const given = person.givenName?.trim().toLowerCase() ?? "";
  const family = person.familyName?.trim().toLowerCase() ?? "";
  const email = person.email?.trim().toLowerCase() ?? "";
  const [local = "", domain = ""] = email.split("@");
  const label = domain.split(".")[0] ?? "";
  const words = [
    given,
    family,
    `${given}${family}`,
    `${family}${given}`,
    email,
    local,
    ...local.split(/[._+-]/),
    label,
    ...label.split("-"),
    ...(person.companyName?.toLowerCase().split(/\s+/) ?? []),
  ];
  return [...new Set(words.filter((word) => word.length >= 3))];
}

const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}]/gu, "");

/**
 * Whether the password's letters are hardly more than the person's own words: zxcvbn rates "Brillmann.Maria!" by
 * its pieces, but whoever knows the person guesses it at once.
 */
function madeOfOwnWords(password: string, inputs: string[]): boolean {
  const all = letters(password);
  let rest = all;
  for (const word of inputs.map(letters).sort((a, b) => b.length - a.length))
    if (word.length >= 3) rest = rest.replaceAll(word, "");
  return rest.length < all.length && rest.length < 4;
}

export async function estimateStrength(password: string, person: PersonalWords): Promise<Strength> {
  const inputs = personalInputs(person);
  if (inputs.length > 0 && madeOfOwnWords(password, inputs))
    return { score: 1, accepted: false, warning: "userInputs" };
  const result = (await estimatorOnce()).check(password, inputs);
  const accepted = result.guessesLog10 >= ACCEPTED_GUESSES_LOG10;
  const score = accepted ? (result.score === 4 ? 4 : 3) : (Math.min(result.score, 2) as Score);
  return { score, accepted, warning: result.feedback.warning };
}
