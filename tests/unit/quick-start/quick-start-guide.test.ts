/**
 * Which snippets each kind of application gets and why the others are missing, and the `.env` they read: the
 * registration's values under the names the Node.js snippets use, and a placeholder, never a secret, where the
 * secret goes.
 */
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { quickStartGuide } from "@/lib/quick-start/quick-start-guide";
import { SECRET_PLACEHOLDER } from "@/lib/quick-start/quick-start-values";
import { syntaxErrors, valuesOf, type Example } from "./quick-start-fixtures";

const snippetIds = (example: Example) => quickStartGuide(valuesOf(example)).snippets.map((snippet) => snippet.id);
const notes = (example: Example) => quickStartGuide(valuesOf(example)).notes;

describe("the quick start's choice of snippets", () => {
  it("gives a server web application the server frameworks, and says why AppAuth is missing", () => {
    expect(snippetIds("web")).toEqual(["authjs", "express", "aspnet", "spring"]);
    expect(notes("web")).toEqual(["secretKept"]);
  });

  it("gives apps without a secret AppAuth only, and says why the server frameworks are missing", () => {
    expect(snippetIds("browser")).toEqual(["appauth-browser"]);
    expect(notes("browser")).toEqual(["noSecret"]);
    expect(snippetIds("mobile")).toEqual(["appauth-desktop", "appauth-android"]);
    expect(notes("mobile")).toEqual(["noSecret"]);
    // A desktop app without a redirect URI of its own scheme gets no Android snippet, and is told how to get one.
    expect(snippetIds("native")).toEqual(["appauth-desktop"]);
    expect(notes("native")).toEqual(["noSecret", "nativeLoopback"]);
  });

  it("gives no snippet, with its reason, to applications that sign in no other way than the snippets do", () => {
    expect([snippetIds("backend"), notes("backend")]).toEqual([[], ["backend"]]);
    expect([snippetIds("device"), notes("device")]).toEqual([[], ["noCodeFlow"]]);
    expect([snippetIds("keys"), notes("keys")]).toEqual([[], ["privateKeyJwt"]]);
  });

  it("writes every JavaScript and TypeScript file so that it parses", () => {
    for (const example of ["web", "browser", "native", "mobile"] as const)
      for (const snippet of quickStartGuide(valuesOf(example)).snippets)
        for (const file of snippet.files.filter(
          ({ language }) => language === "typescript" || language === "javascript",
        ))
          expect(syntaxErrors(file.text), `${example} ${snippet.id} ${file.name}`).toEqual([]);
  });
});

describe("the quick start's .env", () => {
  it("holds the registration's values under the names the snippets read, and a placeholder for the secret", () => {
    const env = quickStartGuide(valuesOf("web")).env;
    expect(env.name).toBe(".env");
    expect(parseEnv(env.text)).toEqual({
      OPTIGATE_ISSUER: "http://localhost:3000",
      OPTIGATE_CLIENT_ID: "praxissoft-web",
      OPTIGATE_CLIENT_SECRET: SECRET_PLACEHOLDER,
      OPTIGATE_REDIRECT_URI: "http://localhost:4000/callback",
      OPTIGATE_POST_LOGOUT_REDIRECT_URI: "http://localhost:4000/",
      OPTIGATE_SCOPE: "openid profile email platform.catalogs.read",
    });
  });

  it("has no secret line for an application without one, and no redirect lines where none are registered", () => {
    const names = (example: Example) => Object.keys(parseEnv(quickStartGuide(valuesOf(example)).env.text)).sort();
    expect(names("browser")).toEqual([
      "OPTIGATE_CLIENT_ID",
      "OPTIGATE_ISSUER",
      "OPTIGATE_REDIRECT_URI",
      "OPTIGATE_SCOPE",
    ]);
    expect(names("backend")).toEqual([
      "OPTIGATE_CLIENT_ID",
      "OPTIGATE_CLIENT_SECRET",
      "OPTIGATE_ISSUER",
      "OPTIGATE_SCOPE",
    ]);
  });
});
