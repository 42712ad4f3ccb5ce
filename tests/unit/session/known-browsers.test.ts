/** The known-browser cookie: sealed, a year long, the latest accounts first, and nothing read from a foreign one. */
import { describe, expect, it } from "vitest";
import { KNOWN_BROWSER_ACCOUNTS } from "@/lib/config/policy";
import { knownAccountsOf, knowsAccount, rememberAccountCookie } from "@/lib/session/known-browsers";
import { sealedCookie } from "@/lib/http/sealed-cookie";

const HTTP = { secretKey: "known-browsers-secret-key-0123456789", publicUrl: "http://localhost:3000" };
const HTTPS = { ...HTTP, publicUrl: "https://id.example" };

/** A request of a browser holding the cookie a response set (its name and value). */
const browserWith = (setCookie: string) =>
  new Request("http://localhost:3000/interaction/login", { headers: { cookie: setCookie.split(";")[0] } });

/** The accounts the browser knows after `cookie` was set. */
const knownAfter = (cookie: string, config = HTTP) => knownAccountsOf(browserWith(cookie), config);

describe("the known-browser cookie", () => {
  it("is HttpOnly, SameSite=Lax, for a year, and Secure with the __Host- prefix over https", () => {
    const plain = rememberAccountCookie([], "user-1", HTTP);
    expect(plain).toMatch(/^optigate_browser=[^;]+; Path=\/; SameSite=Lax; HttpOnly; Max-Age=31536000$/);
    const secure = rememberAccountCookie([], "user-1", HTTPS);
    expect(secure).toMatch(
      /^__Host-optigate_browser=[^;]+; Path=\/; SameSite=Lax; HttpOnly; Secure; Max-Age=31536000$/,
    );
  });

  it("names the accounts that signed in with the browser, and no other, without their ids in the clear", () => {
    const cookie = rememberAccountCookie(knownAfter(rememberAccountCookie([], "user-1", HTTP)), "user-2", HTTP);
    const known = knownAfter(cookie);
    expect(knowsAccount(known, "user-1")).toBe(true);
    expect(knowsAccount(known, "user-2")).toBe(true);
    expect(knowsAccount(known, "user-3")).toBe(false);
    expect(decodeURIComponent(cookie)).not.toMatch(/user-[12]/);
  });

  it("keeps the latest accounts first, each once, and drops the one longest unseen past the cap", () => {
    let known: string[] = [];
    for (let n = 0; n <= KNOWN_BROWSER_ACCOUNTS; n++)
      known = knownAfter(rememberAccountCookie(known, `user-${n}`, HTTP));
    expect(known).toHaveLength(KNOWN_BROWSER_ACCOUNTS);
    expect(knowsAccount(known, "user-0")).toBe(false);
    const again = knownAfter(rememberAccountCookie(known, "user-3", HTTP));
    expect(again).toHaveLength(KNOWN_BROWSER_ACCOUNTS);
    expect(again[0]).toBe(known.find((mark) => knowsAccount([mark], "user-3")));
  });

  it("reads nothing from a missing, forged, foreign-keyed or other cookie's value", () => {
    const cookie = rememberAccountCookie([], "user-1", HTTP);
    expect(knownAccountsOf(new Request("http://localhost:3000/"), HTTP)).toEqual([]);
    expect(knownAfter("optigate_browser=not-sealed")).toEqual([]);
    expect(knownAfter(cookie, { ...HTTP, secretKey: "another-secret-key-0123456789abcdef" })).toEqual([]);
    const otherCookies = sealedCookie("optigate_other", ["x"], { ...HTTP, path: "/" }).replace(
      "optigate_other",
      "optigate_browser",
    );
    expect(knownAfter(otherCookies)).toEqual([]);
    const notAList = sealedCookie("optigate_browser", { accounts: 1 }, { ...HTTP, path: "/" });
    expect(knownAfter(notAList)).toEqual([]);
  });
});
