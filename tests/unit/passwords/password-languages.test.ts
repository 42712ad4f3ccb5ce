/**
 * The estimate in every page language: a common word of the page's language or the person's, with a year, is refused
 * once that language's dictionary is read, although English alone would take it; two languages read together both
 * count; the server's check reads the languages it is given, as the meter does.
 */
import { describe, expect, it } from "vitest";
import { checkNewPassword } from "@/lib/crypto/password-policy";
import { estimateStrength } from "@/lib/crypto/password-estimator";

/** A word of each language with a year: more than 10^9 guesses for English dictionaries, far less for its own. */
const WORD_AND_YEAR = {
  de: "Schmetterling2024",
  fr: "tournesol2024",
  it: "cioccolato1987",
  es: "calcetines2024",
  nl: "boterham1990",
  pl: "ziemniaki2023",
} as const;

const refusal = (password: string, languages: (string | null)[]) =>
  checkNewPassword(password, { minLength: 12, person: {}, languages }).then(
    () => "accepted",
    (error: { code: string }) => error.code,
  );

describe("the estimate in every page language", () => {
  it("refuses a German word with a year on every page, German being read always", async () => {
    for (const languages of [[], ["en"], ["fr"], ["de"]])
      expect(await refusal(WORD_AND_YEAR.de, languages)).toBe("password_too_guessable");
  });

  it.each(Object.entries(WORD_AND_YEAR).filter(([language]) => language !== "de"))(
    "refuses a %s word with a year once its dictionary is read",
    async (language, password) => {
      expect(await refusal(password, [])).toBe("accepted");
      expect(await refusal(password, ["en"])).toBe("accepted");
      expect(await refusal(password, [language])).toBe("password_too_guessable");
      // the person's language counts as the page's does
      expect(await refusal(password, ["en", language])).toBe("password_too_guessable");
    },
  );

  it("reads two languages together, each with its own lists", async () => {
    // German, Italian, Dutch and Polish packs name their lists alike: each must still count beside the other.
    for (const [first, second] of [
      ["it", "nl"],
      ["nl", "pl"],
      ["fr", "es"],
    ] as const) {
      expect(await refusal(WORD_AND_YEAR[first], [first, second])).toBe("password_too_guessable");
      expect(await refusal(WORD_AND_YEAR[second], [first, second])).toBe("password_too_guessable");
    }
  });

  it("gives the same answer for the same languages in any order or repetition", async () => {
    const password = WORD_AND_YEAR.fr;
    const answers = await Promise.all(
      [
        ["fr", "de"],
        ["de", "fr"],
        ["fr", "fr", "de", null],
      ].map((languages) => estimateStrength(password, {}, languages)),
    );
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
  });

  it("still takes a passphrase of unrelated words in every language", async () => {
    for (const language of Object.keys(WORD_AND_YEAR))
      expect(await refusal("lesebrille kompass morgentau", [language]), language).toBe("accepted");
  });
});
