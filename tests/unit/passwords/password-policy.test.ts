import { describe, expect, it } from "vitest";
import { checkNewPassword, MAX_PASSWORD_LENGTH } from "@/lib/crypto/password-policy";
import * as zxcvbnEnglish from "@zxcvbn-ts/language-en";
import { estimateStrength, personalInputs, type PersonalWords } from "@/lib/crypto/password-estimator";
import english from "@/messages/en.json";
import { scryptSync } from "node:crypto";
import { hashPassword, MAX_PASSWORD_INPUT_LENGTH, verifyPassword } from "@/lib/crypto/password";

process.env.PASSWORD_HASH_COST = "1024";

/** A stored hash of exactly these characters, made without the module (so without its normalization). */
function plainHash(password: string): string {
  const salt = Buffer.from("0123456789abcdef");
  const key = scryptSync(password, salt, 32, { N: 16, r: 8, p: 1 });
  return ["scrypt", 16, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

const person = { givenName: "Maria", familyName: "Brillmann", email: "maria.brillmann@optik-sonne.de" };
const rules: { minLength: number; person: PersonalWords; languages?: string[] } = { minLength: 12, person };
const refusal = async (password: string, overrides: Partial<typeof rules> = {}) => {
  try {
    await checkNewPassword(password, { ...rules, ...overrides });
  } catch (error) {
    return (error as { code: string }).code;
  }
  return "accepted";
};

describe("the password policy", () => {
  it("accepts a passphrase of unrelated words, without any composition rule", async () => {
    expect(await refusal("lesebrille kompass morgentau")).toBe("accepted");
    expect(await refusal("gleitsicht wolkenkratzer")).toBe("accepted");
  });

  it("refuses passwords shorter than PASSWORD_MIN_LENGTH, counting characters, not bytes", async () => {
    expect(await refusal("kX9#mP2qL8v")).toBe("password_too_short");
    expect(await refusal("kX9#mP2qL8vR")).toBe("accepted");
    expect(await refusal("zK7!vQ2#xW", { minLength: 8 })).toBe("accepted");
    // 11 emoji are 22 UTF-16 units but 11 characters
    expect(await refusal("🔭👓🌈🦉🐙🎈🧭🪐🧪🔬🎯", { minLength: 12 })).toBe("password_too_short");
  });

  it("refuses over 256 characters, and 10,000 before any estimate", async () => {
    const long = "kompass morgentau ".repeat(15);
    expect(await refusal(long.slice(0, MAX_PASSWORD_LENGTH))).toBe("accepted");
    expect(await refusal(long.slice(0, MAX_PASSWORD_LENGTH + 1))).toBe("password_too_long");
    const started = performance.now();
    expect(await refusal("a".repeat(10_000))).toBe("password_too_long");
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("refuses NUL, control characters and lone surrogates", async () => {
    expect(await refusal("lesebrille\u0000kompass")).toBe("password_invalid_characters");
    expect(await refusal("lesebrille\tkompass morgen")).toBe("password_invalid_characters");
    expect(await refusal("lesebrille kompass \uD800 morgen")).toBe("password_invalid_characters");
    expect(await refusal("lesebrille kompass \uDC00 morgen")).toBe("password_invalid_characters");
  });

  it("refuses common and leaked passwords in English and German (a German page's), and small variations of them", async () => {
    for (const common of [
      "Password1234",
      "passwort12345",
      "qwertzuiop123",
      "aaaaaaaaaaaaa",
      "Passwort2024!",
      "Sommer2024Sommer",
      "Welcome2026!!",
    ])
      expect(await refusal(common, { languages: ["de"] }), common).toBe("password_too_guessable");
  });

  it("refuses passwords made of the person's own names and email address", async () => {
    expect(await refusal("mariabrillmann1")).toBe("password_too_guessable");
    expect(await refusal("Brillmann.Maria!")).toBe("password_too_guessable");
    expect(await refusal("maria.brillmann@optik")).toBe("password_too_guessable");
    // a strong password with few letters is not taken for the person's words
    expect(await refusal("84629173058264917305")).toBe("accepted");
    expect(await refusal("#4&9!2*7$1@8%3^6~0")).toBe("accepted");
    // the same password for someone else is fine
    expect(
      await refusal("mariabrillmann1", { person: { givenName: "Jan", familyName: "Kowalski", email: "jan@x.pl" } }),
    ).toBe("accepted");
  });

  it("estimates the first 64 characters only, which bounds the estimator's work on long input", async () => {
    const strongTail = "Kranich Nebel Ofenrohr Quitte";
    expect((await estimateStrength(`${"a".repeat(63)} ${strongTail}`, {})).accepted).toBe(false);
    expect((await estimateStrength(`${"a".repeat(20)} ${strongTail}`, {})).accepted).toBe(true);
  });

  it("says why with a warning that every language's messages explain", async () => {
    expect((await estimateStrength("Password1234", person)).warning).toBe("similarToCommon");
    expect(Object.keys(english.Password.warnings).sort()).toEqual(
      Object.keys(zxcvbnEnglish.translations.warnings).sort(),
    );
  });

  it("collects the person's words, alone and run together", async () => {
    expect(
      personalInputs({
        givenName: "Jo",
        familyName: "Meier",
        email: "jo.meier@brille.de",
        companyName: "Brille Meier",
      }),
    ).toEqual(expect.arrayContaining(["meier", "jomeier", "meierjo", "jo.meier@brille.de", "jo.meier", "brille"]));
  });

  it("compares in NFKC: a password typed in another form of the same characters matches", async () => {
    const stored = await hashPassword("ﬁligran lesebrille");
    expect(await verifyPassword("filigran lesebrille", stored)).toBe(true);
    expect(await verifyPassword("filigran lesebrillen", stored)).toBe(false);
    // The other way round: a hash of the plain form, made without the module, and the ligature typed at sign-in.
    expect(await verifyPassword("ﬁligran lesebrille", plainHash("filigran lesebrille"))).toBe(true);
  });

  it("reads no password longer than 1,024 UTF-16 units, at sign-in as for new ones", async () => {
    const longest = "Lesebrille ".repeat(94).slice(0, MAX_PASSWORD_INPUT_LENGTH);
    const stored = await hashPassword(longest);
    expect(await verifyPassword(longest, stored)).toBe(true);
    const tooLong = `${longest}x`;
    expect(await verifyPassword(tooLong, plainHash(tooLong))).toBe(false);
    await expect(checkNewPassword(tooLong, { minLength: 12, person: {} })).rejects.toThrow(
      expect.objectContaining({ code: "password_too_long" }),
    );
  });
});
