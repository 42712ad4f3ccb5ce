/**
 * A user agent for another server's sign-in pages driven over plain HTTP: it keeps cookies by name (paths and
 * domains are one server's, so they are not told apart) and leaves redirects to the test, which follows them by hand.
 */
export class CookieBrowser {
  private cookies = new Map<string, string>();

  async get(url: string): Promise<Response> {
    return this.keep(await fetch(url, { redirect: "manual", headers: { cookie: this.header() } }));
  }

  async post(url: string, form: Record<string, string>): Promise<Response> {
    return this.keep(
      await fetch(url, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: this.header(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form),
      }),
    );
  }

  private header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private keep(response: Response): Response {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const split = pair.indexOf("=");
      this.cookies.set(pair.slice(0, split), pair.slice(split + 1));
    }
    return response;
  }
}

/** Where a redirect answer leads, as an absolute URL. */
export const location = (response: Response, base: string) => new URL(response.headers.get("location")!, base).href;
