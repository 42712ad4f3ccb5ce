/**
 * A browser over real HTTP, for flows between servers that each run for real (OptiGate behind its Node server, a
 * relying party in a process of its own): cookies kept per host, each redirect taken by the test, and OptiGate's
 * forms posted with the CSRF token its pages would render (the cookie set here, the token derived as OptiGate does,
 * as UserAgent does for the route handlers).
 */
import { randomBytes } from "node:crypto";
import { CSRF_FIELD, csrfCookieName, csrfToken } from "@/lib/session/csrf";
import { SESSION_COOKIE } from "@/lib/session/session-cookie";

export class HttpBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  /** `optigate`: OptiGate's issuer, a plain-http one, where this browser posts OptiGate's forms. */
  constructor(
    private readonly optigate: string,
    private readonly secretKey: string,
  ) {
    this.jar(optigate).set(csrfCookieName(optigate), randomBytes(32).toString("base64url"));
  }

  private jar(url: string): Map<string, string> {
    const host = new URL(url).hostname;
    if (!this.jars.has(host)) this.jars.set(host, new Map());
    return this.jars.get(host)!;
  }

  /** A cookie this browser holds for the host of `url`. */
  cookie(url: string, name: string): string | undefined {
    return this.jar(url).get(name);
  }

  private async send(url: string, init: RequestInit = {}): Promise<Response> {
    const jar = this.jar(url);
    const cookie = [...jar].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");
    const response = await fetch(url, { ...init, redirect: "manual", headers: { ...init.headers, cookie } });
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      if (attributes.some((attribute) => attribute.trim().toLowerCase() === "max-age=0")) jar.delete(name);
      else jar.set(name, decodeURIComponent(pair.slice(pair.indexOf("=") + 1)));
    }
    return response;
  }

  /** A GET of `url`, or of a redirect's location relative to the URL it came from. */
  get(url: string, base?: string): Promise<Response> {
    return this.send(new URL(url, base).href);
  }

  /** Posts one of OptiGate's forms, as its page would, with this browser's cookies and CSRF token. */
  post(path: string, form: Record<string, string | string[]>): Promise<Response> {
    const token = csrfToken(this.cookie(this.optigate, csrfCookieName(this.optigate))!, this.secretKey, this.session);
    const body = new URLSearchParams([[CSRF_FIELD, token]]);
    for (const [name, value] of Object.entries(form)) for (const item of [value].flat()) body.append(name, item);
    return this.send(`${this.optigate}${path}`, {
      method: "POST",
      body,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(this.optigate).origin },
    });
  }

  /** OptiGate's session cookie, once signed in. */
  get session(): string | undefined {
    return this.cookie(this.optigate, SESSION_COOKIE);
  }
}

/** Where a redirect sends the browser, resolved against the URL it came from. */
export const locationOf = (response: Response, from: string): URL => new URL(response.headers.get("location")!, from);
