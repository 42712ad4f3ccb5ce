/**
 * The password policy, after NIST SP 800-63B §3.1.1.2: PASSWORD_MIN_LENGTH (default 12) to 256 characters of any
 * Unicode, compared in NFKC, with no composition rules and no expiry; refused when it is too guessable
 * (lib/crypto/password-estimator.ts), including from the person's own name, email and company, and, where the
 * deployment looks passwords up (PASSWORD_BREACH_CHECK), when it is known from a breach. One policy for invitations,
 * resets, changes and the command line.
 */
import { MAX_PASSWORD_INPUT_LENGTH } from "@/lib/crypto/password";
import { OptiGateError } from "@/lib/errors/optigate-error";
import { estimateStrength, type PersonalWords } from "@/lib/crypto/password-estimator";

/** scrypt reads the whole password: far beyond any passphrase, short of a denial of service */
export const MAX_PASSWORD_LENGTH = 256;

export type PasswordProblem =
  | "password_too_short"
  | "password_too_long"
  | "password_invalid_characters"
  | "password_too_guessable"
  | "password_breached";

/**
 * Whether a password is known from a breach (lib/http/breached-passwords.ts). It never fails: when the answer does not
 * come, it resolves false and the estimate alone decides, so that an outage never keeps anybody from a new password.
 */
export type BreachCheck = (password: string) => Promise<boolean>;

interface NewPasswordRules {
  minLength: number;
  person: PersonalWords;
  /** the page's language and the person's own: their words are guessed besides English ones */
  languages?: readonly (string | null | undefined)[];
  /** asked about a password the estimate accepted; none: no lookup */
  breached?: BreachCheck;
}

export class PasswordPolicyError extends OptiGateError<PasswordProblem> {
  constructor(
    readonly code: PasswordProblem,
    message: string,
    /** zxcvbn's warning key for a guessable password */
    readonly warning?: string,
  ) {
    super(message);
  }
}

/** Characters counted as people see them: a code point each, after NFKC. */
const passwordLength = (password: string) => [...password.normalize("NFKC")].length;

/**
 * The password in the form it is hashed in (NFKC), or a PasswordPolicyError. A password far too long is refused
 * before any other work, so that no length of input costs more than a bounded check.
 */
export async function checkNewPassword(password: string, rules: NewPasswordRules): Promise<string> {
  if (password.length > MAX_PASSWORD_INPUT_LENGTH)
    throw new PasswordPolicyError("password_too_long", `a password may have ${MAX_PASSWORD_LENGTH} characters`);
  // Lone surrogates (\p{Cs} under the u flag matches only unpaired halves) and control characters cannot be typed
  // the same way twice.
  if (/[\p{Cs}\p{Cc}]/u.test(password))
    throw new PasswordPolicyError("password_invalid_characters", "a password cannot contain control characters");
  const normalized = password.normalize("NFKC");
  const length = passwordLength(normalized);
  if (length < rules.minLength)
    throw new PasswordPolicyError("password_too_short", `a password needs at least ${rules.minLength} characters`);
  if (length > MAX_PASSWORD_LENGTH)
    throw new PasswordPolicyError("password_too_long", `a password may have ${MAX_PASSWORD_LENGTH} characters`);
  const strength = await estimateStrength(normalized, rules.person, rules.languages);
  if (!strength.accepted)
    throw new PasswordPolicyError(
      "password_too_guessable",
      "this password is too easy to guess: it is a common one, close to one, or made of the person's own names",
      strength.warning ?? undefined,
    );
  if (await rules.breached?.(normalized))
    throw new PasswordPolicyError(
      "password_breached",
      "this password appears in data breaches on the internet, and attackers try those first",
    );
  return normalized;
}
