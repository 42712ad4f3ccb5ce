/**
 * How guessable a password is, estimated by zxcvbn-ts against its common and English dictionaries (leaked and common
 * passwords, words, names, keyboard patterns, dates), the dictionaries of the page's language and of the person's own,
 * and the person's name, email and company. The same module runs in the browser for the strength meter and on the
 * server for the decision, given the same languages, so both always agree. Each language's pack is a module of its
 * own, loaded at the first estimate that needs it: a page downloads only its languages, and a process that never
 * checks a new password never holds any.
 */
import type { Options, OptionsDictionary, ZxcvbnFactory } from "@zxcvbn-ts/core";

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

/**
 * The packs of the page languages besides English, which is always read (as are the common passwords, and German, the
 * language of most of the trade OptiGate serves). Each import is its own chunk in the browser. The older packs name
 * their lists without a language (`commonWords`): see languageLists.
 */
const ALWAYS_READ = "de";
const LANGUAGE_PACKS: Record<string, () => Promise<{ dictionary: OptionsDictionary }>> = {
  de: () => import("@zxcvbn-ts/language-de"),
  es: () => import("@zxcvbn-ts/language-es-es"),
  fr: () => import("@zxcvbn-ts/language-fr"),
  it: () => import("@zxcvbn-ts/language-it"),
  nl: () => import("@zxcvbn-ts/language-nl-be"),
  pl: () => import("@zxcvbn-ts/language-pl"),
};

/**
 * zxcvbn-ts ranks every list anew for each estimator it builds (some 14 MB of heap for the common passwords and English
 * alone). Here each language's lists are ranked once, and every estimator that reads them shares the ranking.
 */
const rankings = new Map<string, Promise<Options>>();
/** Estimators by their languages: a page, or a server, needs the few sets its people's languages make. */
const estimators = new Map<string, Promise<ZxcvbnFactory>>();

/** A user's words, as the server and the page's meter both read them. */
export function personalWordsOf(user: {
  givenName: string;
  familyName: string;
  email: string;
  company: { name: string };
}): PersonalWords {
  return { givenName: user.givenName, familyName: user.familyName, email: user.email, companyName: user.company.name };
}

/** The languages among `languages` whose packs are read besides English, each once, in a fixed order. */
export function wordLanguages(languages: readonly (string | null | undefined)[]): string[] {
  const known = languages.filter((language): language is string => Object.hasOwn(LANGUAGE_PACKS, language ?? ""));
  return [...new Set([ALWAYS_READ, ...known])].sort();
}

/** A pack's lists, each named for its language, so that two packs' `commonWords` both count. */
async function languageLists(language: string): Promise<OptionsDictionary> {
  const { dictionary } = await LANGUAGE_PACKS[language]();
  const named = (name: string) => (name.includes("-") ? name : `${name}-${language}`);
  return Object.fromEntries(Object.entries(dictionary).map(([name, words]) => [named(name), words]));
}

/** `cache`'s entry for `key`, made at the first call; a failed one is dropped, and the next call tries again. */
function cached<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let entry = cache.get(key);
  if (!entry) {
    entry = make();
    cache.set(key, entry);
    entry.catch(() => cache.delete(key));
  }
  return entry;
}

async function commonAndEnglishLists(): Promise<OptionsDictionary> {
  const [common, en] = await Promise.all([import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")]);
  return { ...common.dictionary, ...en.dictionary };
}

/** The lists of `language` ("": the common passwords and English), ranked. */
function ranking(language: string): Promise<Options> {
  return cached(rankings, language, async () => {
    const lists = language ? languageLists(language) : commonAndEnglishLists();
    const [{ Options }, dictionary] = await Promise.all([import("@zxcvbn-ts/core"), lists]);
    return new Options({ dictionary });
  });
}

const merged = <T>(parts: Record<string, T>[]): Record<string, T> =>
  Object.fromEntries(parts.flatMap((part) => Object.entries(part)));

async function buildEstimator(languages: string[]): Promise<ZxcvbnFactory> {
  const [{ ZxcvbnFactory }, { adjacencyGraphs }, ranked] = await Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    Promise.all(["", ...languages].map(ranking)),
  ]);
  const estimator = new ZxcvbnFactory({
    graphs: adjacencyGraphs,
    maxLength: ESTIMATED_LENGTH,
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
  });
  // The rankings go where the estimator's matchers read them at every check: its options, private to TypeScript only.
  // Should a later zxcvbn-ts read them elsewhere, every dictionary test fails.
  const options = (estimator as unknown as { options: Options }).options;
  options.dictionary = merged(ranked.map((set) => set.dictionary));
  options.rankedDictionaries = merged(ranked.map((set) => set.rankedDictionaries));
  options.rankedDictionariesMaxWordSize = merged(ranked.map((set) => set.rankedDictionariesMaxWordSize));
  return estimator;
}

const estimatorFor = (languages: string[]) => cached(estimators, languages.join(","), () => buildEstimator(languages));

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

/** `languages`: the page's and the person's (unknown ones, and English, which is always read, are skipped). */
export async function estimateStrength(
  password: string,
  person: PersonalWords,
  languages: readonly (string | null | undefined)[] = [],
): Promise<Strength> {
  const inputs = personalInputs(person);
  if (inputs.length > 0 && madeOfOwnWords(password, inputs))
    return { score: 1, accepted: false, warning: "userInputs" };
  const result = (await estimatorFor(wordLanguages(languages))).check(password, inputs);
  const accepted = result.guessesLog10 >= ACCEPTED_GUESSES_LOG10;
  const score = accepted ? (result.score === 4 ? 4 : 3) : (Math.min(result.score, 2) as Score);
  return { score, accepted, warning: result.feedback.warning };
}
