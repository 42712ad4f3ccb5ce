/**
 * Pages as raw responses, for the rights tests: a request context signed in through the login form, and a page's raw
 * body (HTML, or the RSC payload the Next.js router would fetch), without following redirects.
 */
import { expect, request as newRequestContext, type APIRequestContext } from "@playwright/test";

/** A request context signed in with these credentials, or anonymous without them. */
export async function signedInContext(
  baseURL: string,
  credentials?: readonly [string, string],
): Promise<APIRequestContext> {
  const context = await newRequestContext.newContext({ baseURL });
  if (!credentials) return context;
  const loginPage = await (await context.get("/login")).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(loginPage)![1];
  const [username, password] = credentials;
  const response = await context.post("/interaction/login", {
    form: { csrf_token: csrf, returnUrl: "/", username, password },
    maxRedirects: 0,
  });
  expect(response.headers()["location"], `sign-in of ${username}`).toBe("/");
  return context;
}

export const VARIANTS: Record<string, Record<string, string>> = { html: {}, rsc: { RSC: "1" } };

/** The raw answer; an RSC request is first sent on to its cache-busting `_rsc` URL, as the Next.js router does. */
export async function rawBody(
  context: APIRequestContext,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  let response = await context.get(path, { headers, maxRedirects: 0 });
  const location = response.headers()["location"] ?? "";
  if (headers.RSC && response.status() === 307 && new URL(location, "http://x").searchParams.has("_rsc"))
    response = await context.get(location, { headers, maxRedirects: 0 });
  return { status: response.status(), body: await response.text() };
}

/** Accepts an invitation through its page and form, as the invited person would; expects to arrive signed in. */
export async function joinByInvitation(
  baseURL: string,
  invitationUrl: string,
  person: { givenName: string; familyName: string; password: string },
): Promise<void> {
  const link = new URL(invitationUrl);
  const visitor = await signedInContext(baseURL);
  const page = await (await visitor.get(`${link.pathname}${link.search}`)).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page)![1];
  const joined = await visitor.post("/interaction/invitation", {
    form: {
      csrf_token: csrf,
      token: link.searchParams.get("token")!,
      given_name: person.givenName,
      family_name: person.familyName,
      password: person.password,
    },
    maxRedirects: 0,
  });
  expect(joined.headers()["location"]).toBe("/portal/applications");
  await visitor.dispose();
}
