/**
 * PASSWORD_HASH_ALGORITHM and PASSWORD_ARGON2_*: OWASP's m=19 MiB, t=2, p=1 by default, never below its weakest
 * recommended pair, and what loadConfig reads is what new hashes are made with.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/config";
import { readPasswordHashing } from "@/lib/config/password-hashing";
import { hashPassword } from "@/lib/crypto/password";
import { DEFAULT_PASSWORD_HASHING, usePasswordHashing } from "@/lib/crypto/password-hashing";
import { thrown } from "../../helpers/thrown";

afterEach(() => usePasswordHashing(DEFAULT_PASSWORD_HASHING));

describe("password hashing settings", () => {
  it("are Argon2id at 19456 KiB, 2 passes and 1 lane unless set", () => {
    expect(readPasswordHashing({})).toEqual({
      algorithm: "argon2id",
      argon2: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
    });
  });

  it.each<[Record<string, string>, object]>([
    [
      { PASSWORD_ARGON2_MEMORY_KIB: "47104", PASSWORD_ARGON2_TIME_COST: "1" },
      { memoryCost: 47_104, timeCost: 1 },
    ],
    [
      { PASSWORD_ARGON2_MEMORY_KIB: " 7168 ", PASSWORD_ARGON2_TIME_COST: "5" },
      { memoryCost: 7168, timeCost: 5 },
    ],
    [
      { PASSWORD_ARGON2_MEMORY_KIB: "65536", PASSWORD_ARGON2_PARALLELISM: "4" },
      { memoryCost: 65_536, parallelism: 4 },
    ],
  ])("take %o", (env, argon2) => {
    expect(readPasswordHashing(env)).toEqual({
      algorithm: "argon2id",
      argon2: { ...DEFAULT_PASSWORD_HASHING.argon2, ...argon2 },
    });
  });

  it("take scrypt as the algorithm of new hashes", () => {
    expect(readPasswordHashing({ PASSWORD_HASH_ALGORITHM: "scrypt" }).algorithm).toBe("scrypt");
  });

  it.each<[Record<string, string>, string, string]>([
    [{ PASSWORD_HASH_ALGORITHM: "bcrypt" }, "PASSWORD_HASH_ALGORITHM", 'must be argon2id or scrypt (got "bcrypt")'],
    [{ PASSWORD_HASH_ALGORITHM: "Argon2id" }, "PASSWORD_HASH_ALGORITHM", "must be argon2id or scrypt"],
    [{ PASSWORD_ARGON2_MEMORY_KIB: "4096" }, "PASSWORD_ARGON2_MEMORY_KIB", "KiB from 7168 to 262144"],
    [{ PASSWORD_ARGON2_MEMORY_KIB: "19 MiB" }, "PASSWORD_ARGON2_MEMORY_KIB", "whole number of KiB"],
    [{ PASSWORD_ARGON2_MEMORY_KIB: "524288" }, "PASSWORD_ARGON2_MEMORY_KIB", "from 7168 to 262144"],
    [{ PASSWORD_ARGON2_TIME_COST: "0" }, "PASSWORD_ARGON2_TIME_COST", "passes from 1 to 16"],
    [{ PASSWORD_ARGON2_TIME_COST: "1" }, "PASSWORD_ARGON2_TIME_COST", "19456 × 1 is 19456"],
    [
      { PASSWORD_ARGON2_MEMORY_KIB: "8192", PASSWORD_ARGON2_TIME_COST: "4" },
      "PASSWORD_ARGON2_TIME_COST",
      "at least 35840 KiB-passes",
    ],
    [{ PASSWORD_ARGON2_PARALLELISM: "0" }, "PASSWORD_ARGON2_PARALLELISM", "lanes from 1 to 8"],
    [{ PASSWORD_ARGON2_PARALLELISM: "16" }, "PASSWORD_ARGON2_PARALLELISM", "lanes from 1 to 8"],
  ])("refuse %o with one line naming %s", (env, variable, text) => {
    const error = thrown(ConfigError, () => loadConfig({ SECRET_KEY: "k".repeat(40), ...env }));
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(text);
    expect(error.message).not.toContain("\n");
  });

  it("are what new hashes are made with once the configuration is read", async () => {
    loadConfig({ SECRET_KEY: "k".repeat(40), PASSWORD_ARGON2_MEMORY_KIB: "12288", PASSWORD_ARGON2_TIME_COST: "3" });
    expect(await hashPassword("Optician#2026")).toMatch(/^\$argon2id\$v=19\$m=12288,t=3,p=1\$/);
    loadConfig({ SECRET_KEY: "k".repeat(40), PASSWORD_HASH_ALGORITHM: "scrypt" });
    expect(await hashPassword("Optician#2026")).toMatch(/^scrypt\$/);
  });
});
