import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { flashHeader } from "@/lib/http/flash-cookies";
import { CSRF_COOKIE_HEADER, interactionPageProxy, UI_LOCALES_HEADER } from "@/lib/pages/page-proxy";

const before = process.env.PUBLIC_URL;
afterEach(() => {
  process.env.PUBLIC_URL = before;
});

/** The request headers the proxy hands on to the page (NextResponse.next carries them as x-middleware-request-*). */
const handedOn = (response: Response, name: string) => response.headers.get(`x-middleware-request-${name}`);

describe("the pages' proxy", () => {
  it("over https: a __Host- CSRF cookie and HSTS", () => {
    process.env.PUBLIC_URL = "https://id.example.com";
    const response = interactionPageProxy(new NextRequest("https://id.example.com/login"));
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith("__Host-optigate_csrf="))!;
    expect(cookie).toMatch(/; Path=\/; SameSite=Lax; HttpOnly; Secure$/);
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("hands on only a supported language and a well-formed CSRF cookie value, whatever the browser sent", () => {
    process.env.PUBLIC_URL = "http://localhost:3000";
    const response = interactionPageProxy(
      new NextRequest("http://localhost:3000/login?ui_locales=%E2%82%AC+de", {
        headers: { cookie: "optigate_csrf=%E2%82%AC" },
      }),
    );
    expect(handedOn(response, UI_LOCALES_HEADER)).toBe("de");
    const csrf = handedOn(response, CSRF_COOKIE_HEADER)!;
    expect(csrf).toMatch(/^[\w-]{43}$/);
    expect(response.headers.getSetCookie().some((value) => value.startsWith(`optigate_csrf=${csrf};`))).toBe(true);
    expect(response.headers.get("strict-transport-security")).toBeNull();
    expect(
      handedOn(
        interactionPageProxy(new NextRequest("http://localhost:3000/login?ui_locales=%E2%82%AC")),
        UI_LOCALES_HEADER,
      ),
    ).toBeNull();
  });
});

describe("one-time cookies", () => {
  it("are handed to the page and deleted in the same answer, so a reload does not show them again", () => {
    process.env.PUBLIC_URL = "http://localhost:3000";
    const response = interactionPageProxy(
      new NextRequest("http://localhost:3000/admin/clients/x", {
        headers: { cookie: "optigate_new_secret=iv.ct.tag; optigate_catalog_import=a.b.c" },
      }),
    );
    expect(handedOn(response, flashHeader("optigate_new_secret"))).toBe("iv.ct.tag");
    const expired = response.headers.getSetCookie();
    expect(expired).toContain("optigate_new_secret=; Path=/admin; SameSite=Lax; HttpOnly; Max-Age=0");
    expect(expired).toContain("optigate_catalog_import=; Path=/portal/catalogs; SameSite=Lax; HttpOnly; Max-Age=0");
  });

  it("cannot be planted through a request header", () => {
    process.env.PUBLIC_URL = "http://localhost:3000";
    const response = interactionPageProxy(
      new NextRequest("http://localhost:3000/admin/clients/x", {
        headers: { [flashHeader("optigate_new_secret")]: "planted" },
      }),
    );
    expect(handedOn(response, flashHeader("optigate_new_secret"))).toBeNull();
  });
});

describe("a mailed link's token", () => {
  const token = "Q2hhbmdlIHRoZSB3b3JsZCwgb25lIHRva2VuIGF0IGE";

  it("leaves the address bar: it goes into the page's HttpOnly __Host- cookie, the browser to the page without it", () => {
    process.env.PUBLIC_URL = "https://id.example.com";
    for (const [page, cookie] of [
      ["/password/reset", "optigate_reset_link"],
      ["/email/confirm", "optigate_email_link"],
    ]) {
      const response = interactionPageProxy(
        new NextRequest(`https://id.example.com${page}?token=${token}&ui_locales=de`),
      );
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe(`https://id.example.com${page}?ui_locales=de`);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.getSetCookie()).toEqual([
        `__Host-${cookie}=${token}; Path=/; SameSite=Lax; HttpOnly; Secure; Max-Age=3600`,
      ]);
    }
  });

  it("that is no token of ours only clears an earlier one, and other pages keep their query", () => {
    process.env.PUBLIC_URL = "http://localhost:3000";
    const bad = interactionPageProxy(new NextRequest(`http://localhost:3000/password/reset?token=${"%3C".repeat(30)}`));
    expect(bad.headers.get("location")).toBe("http://localhost:3000/password/reset");
    expect(bad.headers.getSetCookie()).toEqual(["optigate_reset_link=; Path=/; SameSite=Lax; HttpOnly; Max-Age=0"]);
    const login = interactionPageProxy(new NextRequest(`http://localhost:3000/login?token=${token}`));
    expect(login.status).toBe(200);
  });
});
