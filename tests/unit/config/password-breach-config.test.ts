import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/config";
import { PWNED_PASSWORDS_URL } from "@/lib/config/password-breach-config";
import { thrown } from "../../helpers/thrown";

const KEY = "k".repeat(40);
const breach = (env: Record<string, string>) => loadConfig({ SECRET_KEY: KEY, ...env }).passwordBreach;
const failure = (env: Record<string, string>) => thrown(ConfigError, () => loadConfig({ SECRET_KEY: KEY, ...env }));

describe("PASSWORD_BREACH_CHECK and PASSWORD_BREACH_URL", () => {
  it("look nothing up unless asked to", () => {
    expect(breach({})).toBeNull();
    expect(breach({ PASSWORD_BREACH_CHECK: "off" })).toBeNull();
    expect(breach({ PASSWORD_BREACH_CHECK: " " })).toBeNull();
  });

  it("ask Pwned Passwords, or the mirror named, without a trailing slash", () => {
    expect(breach({ PASSWORD_BREACH_CHECK: "hibp" })).toEqual({ url: "https://api.pwnedpasswords.com" });
    expect(PWNED_PASSWORDS_URL).toBe("https://api.pwnedpasswords.com");
    expect(breach({ PASSWORD_BREACH_CHECK: "hibp", PASSWORD_BREACH_URL: "https://hibp.internal/pwned/" })).toEqual({
      url: "https://hibp.internal/pwned",
    });
    // a local mirror outside production
    expect(breach({ PASSWORD_BREACH_CHECK: "hibp", PASSWORD_BREACH_URL: "http://127.0.0.1:8080" })).toEqual({
      url: "http://127.0.0.1:8080",
    });
  });

  it("stop the start on a value that means nothing, naming the variable", () => {
    for (const [env, variable, message] of [
      [{ PASSWORD_BREACH_CHECK: "yes" }, "PASSWORD_BREACH_CHECK", /must be off or hibp/],
      [{ PASSWORD_BREACH_URL: "https://hibp.internal" }, "PASSWORD_BREACH_URL", /only with PASSWORD_BREACH_CHECK=hibp/],
      [{ PASSWORD_BREACH_CHECK: "hibp", PASSWORD_BREACH_URL: "hibp.internal" }, "PASSWORD_BREACH_URL", /absolute/],
      [{ PASSWORD_BREACH_CHECK: "hibp", PASSWORD_BREACH_URL: "ftp://hibp.internal" }, "PASSWORD_BREACH_URL", /https/],
      [
        { PASSWORD_BREACH_CHECK: "hibp", PASSWORD_BREACH_URL: "https://user:secret@hibp.internal" },
        "PASSWORD_BREACH_URL",
        /credentials/,
      ],
      [
        { PASSWORD_BREACH_CHECK: "hibp", PASSWORD_BREACH_URL: "https://hibp.internal/?k=1" },
        "PASSWORD_BREACH_URL",
        /query/,
      ],
    ] as const) {
      const error = failure(env);
      expect(error.variable).toBe(variable);
      expect(error.message).toMatch(message);
    }
  });

  it("take https only in production", () => {
    const production = { NODE_ENV: "production", PASSWORD_BREACH_CHECK: "hibp" };
    expect(failure({ ...production, PASSWORD_BREACH_URL: "http://hibp.internal" }).message).toMatch(/must use https/);
    expect(breach({ ...production, PASSWORD_BREACH_URL: "https://hibp.internal" })).toEqual({
      url: "https://hibp.internal",
    });
  });
});
