/**
 * The settings that defend passwords and sign-in forms: the shortest password, the breach check, the password hashing
 * (applied process-wide, lib/config/password-hashing.ts) and the proof of work asked under attack.
 */
import { readPasswordBreachConfig, type PasswordBreachConfig } from "@/lib/config/password-breach-config";
import { applyPasswordHashing } from "@/lib/config/password-hashing";
import { readProofOfWorkConfig, type ProofOfWorkConfig } from "@/lib/config/proof-of-work-config";
import { readPasswordMinLength } from "@/lib/config/whole-number-settings";

type Env = Record<string, string | undefined>;

export interface SignInDefenseSettings {
  /** The shortest password accepted (PASSWORD_MIN_LENGTH, default 12, not below 8). */
  passwordMinLength: number;
  passwordBreach: PasswordBreachConfig | null;
  proofOfWork: ProofOfWorkConfig | null;
}

export function readSignInDefenses(env: Env, production: boolean): SignInDefenseSettings {
  applyPasswordHashing(env);
  return {
    passwordMinLength: readPasswordMinLength(env),
    passwordBreach: readPasswordBreachConfig(env, production),
    proofOfWork: readProofOfWorkConfig(env, production),
  };
}
