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

describe("the sign-in language (ui_locales)", () => {
  const authorize = `/connect/authorize?${new URLSearchParams({ client_id: "demo-web", ui_locales: "sv pl-PL de" })}`;
  const visit = (path: string, cookie?: string) => {
    process.env.PUBLIC_URL = "http://localhost:3000";
    const headers = cookie ? { cookie: `optigate_csrf=${"a".repeat(43)}; ${cookie}` } : undefined;
    const response = interactionPageProxy(new NextRequest(`http://localhost:3000${path}`, { headers }));
    const cookies = response.headers.getSetCookie().filter((value) => !value.startsWith("optigate_csrf="));
    return { locale: handedOn(response, UI_LOCALES_HEADER), cookies };
  };

  it("is the first supported one of the authorization request's, kept for the sign-in, never as the switch's choice", () => {
    expect(visit(`/login?${new URLSearchParams({ returnUrl: authorize })}`)).toEqual({
      locale: "pl",
      cookies: ["optigate_sign_in_locale=pl; Path=/; SameSite=Lax; HttpOnly"],
    });
    expect(visit("/consent?interaction=i&ui_locales=de")).toEqual({
      locale: "de",
      cookies: ["optigate_sign_in_locale=de; Path=/; SameSite=Lax; HttpOnly"],
    });
  });

  it("goes on to the sign-in's pages whose address lost it: a failed password, a second factor", () => {
    for (const path of ["/login?returnUrl=%2F&error=invalid_credentials", "/login/second-factor", "/password/forgot"])
      expect(visit(path, "optigate_sign_in_locale=pl")).toEqual({ locale: "pl", cookies: [] });
    expect(visit("/login", "optigate_sign_in_locale=xx")).toEqual({ locale: null, cookies: [] });
  });

  it("ends on a page outside the sign-in, which follows the person's choice or preference instead", () => {
    for (const path of ["/portal", "/portal/profile", "/admin/audit", "/signout"])
      expect(visit(path, "optigate_sign_in_locale=pl")).toEqual({
        locale: null,
        cookies: ["optigate_sign_in_locale=; Path=/; SameSite=Lax; HttpOnly; Max-Age=0"],
      });
    expect(visit("/portal")).toEqual({ locale: null, cookies: [] });
  });

  it("lasts through a portal page the sign-in passes (enrolment), and a mailed link's page is in its language", () => {
    const enrol = `/portal/security?${new URLSearchParams({ enrol: "required", returnUrl: authorize })}`;
    expect(visit(enrol, "optigate_sign_in_locale=pl")).toEqual({ locale: "pl", cookies: [] });
    expect(visit("/portal/security?ui_locales=de")).toEqual({ locale: "de", cookies: [] });
    const signIn = `/login?${new URLSearchParams({ returnUrl: "/portal/security?ui_locales=de" })}`;
    expect(visit(signIn).locale).toBe("de");
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
