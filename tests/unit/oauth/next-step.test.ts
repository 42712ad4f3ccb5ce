import { describe, expect, it } from "vitest";
import { decideNextStep, type SessionFacts } from "@/lib/oauth/authorize/next-step";
import type { Prompt } from "@/lib/oauth/authorize/prompt-parameters";
import { ACR_MFA, ACR_PASSWORD, type Acr } from "@/lib/session/authentication-level";

const now = new Date("2026-11-22T12:00:00Z");
const session: SessionFacts = {
  userId: "u1",
  authTime: new Date(now.getTime() - 90_000),
  amr: ["pwd"],
  secondFactorRequired: false,
};
const request = (scopes: string[], prompt: Prompt[] = [], maxAge?: number, acr?: Acr) => ({
  scopes,
  prompt: new Set(prompt),
  maxAge,
  acr,
});

describe("decideNextStep", () => {
  it("asks for login without a session, for prompt=login, another hinted user, or an old authentication", () => {
    expect(decideNextStep(request(["openid"]), null, null, undefined, now).kind).toBe("login");
    expect(decideNextStep(request(["openid"], ["login"]), session, ["openid"], undefined, now).kind).toBe("login");
    expect(decideNextStep(request(["openid"]), session, ["openid"], "u2", now).kind).toBe("login");
    expect(decideNextStep(request(["openid"], [], 60), session, ["openid"], undefined, now).kind).toBe("login");
    expect(decideNextStep(request(["openid"], [], 90), session, ["openid"], undefined, now).kind).toBe("issue");
  });

  it("takes a sign-in since a pushed request started for its prompt=login and max_age, and no earlier one", () => {
    const pushed = (startedAt: Date) => ({ ...request(["openid"], ["login"], 0), signedInSince: startedAt });
    const before = new Date(session.authTime.getTime() - 1000);
    const after = new Date(session.authTime.getTime() + 1000);
    expect(decideNextStep(pushed(before), session, ["openid"], undefined, now).kind).toBe("issue");
    expect(decideNextStep(pushed(after), session, ["openid"], undefined, now).kind).toBe("login");
    expect(decideNextStep(pushed(before), session, ["openid"], "u2", now).kind).toBe("login");
  });

  it("asks for consent when it is missing, narrower, insisted on, or offline access is requested", () => {
    expect(decideNextStep(request(["openid"]), session, null, undefined, now).kind).toBe("consent");
    expect(decideNextStep(request(["openid", "email"]), session, ["openid"], undefined, now).kind).toBe("consent");
    expect(decideNextStep(request(["openid"], ["consent"]), session, ["openid"], undefined, now).kind).toBe("consent");
    expect(
      decideNextStep(request(["openid", "offline_access"]), session, ["openid", "offline_access"], undefined, now).kind,
    ).toBe("consent");
    expect(decideNextStep(request(["openid"]), session, ["openid", "email"], "u1", now)).toEqual({
      kind: "issue",
      scopes: ["openid"],
    });
  });

  it("turns needed interaction into errors for prompt=none", () => {
    const login = decideNextStep(request(["openid"], ["none"]), null, null, undefined, now);
    expect(login.kind === "error" && login.error.code).toBe("login_required");
    const consent = decideNextStep(request(["openid"], ["none"]), session, null, undefined, now);
    expect(consent.kind === "error" && consent.error.code).toBe("consent_required");
  });

  it("asks for a second factor when the request wants the mfa level or the company requires it, unless given", () => {
    const mfaSession = { ...session, amr: ["pwd", "otp", "mfa"] };
    const required = { ...session, secondFactorRequired: true };
    const step = (facts: SessionFacts, acr?: Acr, prompt: Prompt[] = []) =>
      decideNextStep(request(["openid"], prompt, undefined, acr), facts, ["openid"], undefined, now);
    expect(step(session, ACR_MFA).kind).toBe("second_factor");
    expect(step(required).kind).toBe("second_factor");
    expect(step(required, ACR_PASSWORD).kind).toBe("second_factor");
    expect(step(session, ACR_PASSWORD).kind).toBe("issue");
    expect(step(mfaSession, ACR_MFA).kind).toBe("issue");
    expect(step({ ...mfaSession, secondFactorRequired: true }).kind).toBe("issue");
    const silent = step(session, ACR_MFA, ["none"]);
    expect(silent.kind === "error" && silent.error.code).toBe("interaction_required");
  });
});
