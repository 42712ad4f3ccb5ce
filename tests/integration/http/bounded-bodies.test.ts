/**
 * Every POST that Next.js serves reads at most 64 KB of body (the catalog upload 100 MB, as a stream) and answers
 * 413 beyond that, whether the body declares its length or arrives chunked without one. The bodies here are produced
 * on demand and count what the server pulled, so the tests show that reading stopped, not only what was answered.
 */
import { MAX_FORM_BYTES, MAX_UPLOAD_BYTES } from "@/lib/config/policy";
import { describe, expect, it } from "vitest";
import { ROUTES } from "@/lib/server/routes";
import { CSRF_FIELD } from "@/lib/session/csrf";
import { ISSUER, signedInAgent, useOAuthService, type UserAgent } from "../../helpers/oauth-service";
import { testProvider } from "../../helpers/test-database";

const service = useOAuthService();
const cookieHeader = (agent: UserAgent) =>
  [...agent.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ");

const CHUNK = 16 * 1024;

/** A body of `total` bytes made of `prefix` and then `filler` repeated, generated as it is read; `pulled` counts what was read. */
function endlessBody(total: number, prefix = "a=", filler = new TextEncoder().encode("a".repeat(CHUNK))) {
  const counter = { pulled: 0 };
  const head = new TextEncoder().encode(prefix);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) return controller.close();
      const chunk = counter.pulled === 0 ? head : filler;
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, counter };
}

const POSTS = [
  "/connect/authorize",
  "/connect/token",
  "/connect/revocation",
  "/connect/userinfo",
  "/connect/introspect",
  "/connect/endsession",
  "/services/login/SilentLogin",
  "/interaction/login",
  "/interaction/consent",
  "/interaction/signout",
  "/interaction/portal",
  "/interaction/admin",
] as const;

/** Routes that refuse an anonymous caller before they read any body at all. */
const REFUSED_FIRST: Partial<Record<(typeof POSTS)[number], number>> = { "/interaction/admin": 403 };

function post(path: string, body: ReadableStream<Uint8Array> | string, headers: Record<string, string>): Request {
  return new Request(`${ISSUER}${path}`, { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe(`request bodies are bounded on ${testProvider()}`, () => {
  for (const path of POSTS) {
    it(`${path} stops reading a chunked form body after 64 KB and answers 413`, async () => {
      const { stream, counter } = endlessBody(600 * 1024 * 1024);
      const response = await ROUTES[path].POST(
        post(path, stream, { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "203.0.113.9" }),
      );
      expect(response.status).toBe(REFUSED_FIRST[path] ?? 413);
      expect(counter.pulled).toBeLessThanOrEqual(MAX_FORM_BYTES + 2 * CHUNK);
    });

    it(`${path} answers 413 at once to a declared length over 64 KB`, async () => {
      const { stream, counter } = endlessBody(600 * 1024 * 1024);
      const response = await ROUTES[path].POST(
        post(path, stream, {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(600 * 1024 * 1024),
        }),
      );
      expect(response.status).toBe(REFUSED_FIRST[path] ?? 413);
      expect(counter.pulled).toBeLessThanOrEqual(2 * CHUNK);
    });
  }

  it("a body just under the limit is read whole", async () => {
    const response = await ROUTES["/interaction/login"].POST(
      post("/interaction/login", `username=x&${"a".repeat(MAX_FORM_BYTES - 100)}=1`, {
        "content-type": "application/x-www-form-urlencoded",
      }),
    );
    expect(response.status).toBe(303);
  });

  // 100 MB go through the upload's multipart parser: seconds alone, more on a busy machine.
  it(
    "the catalog upload stops a chunked body after 100 MB, writes nothing, and tells the supplier",
    { timeout: 120_000 },
    async () => {
      const supplier = await signedInAgent("supplier@demo.test", "Supplier#2026");
      const boundary = "----bounded";
      const head = [
        `--${boundary}\r\nContent-Disposition: form-data; name="${CSRF_FIELD}"\r\n\r\n${supplier.csrfToken}\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="action"\r\n\r\nimport\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="catalog"; filename="big.xml"\r\nContent-Type: text/xml\r\n\r\n<?xml version="1.0"?>\n`,
      ].join("");
      // Empty comments: well-formed XML the import keeps reading, to the end of the upload limit.
      const { stream, counter } = endlessBody(
        MAX_UPLOAD_BYTES + 50 * 1024 * 1024,
        head,
        new TextEncoder().encode("<!---->".repeat(CHUNK / 7)),
      );
      const revisions = await service().database.db.catalogRevision.count();
      const response = await ROUTES["/interaction/catalogs"].POST(
        post("/interaction/catalogs", stream, {
          "content-type": `multipart/form-data; boundary=${boundary}`,
          cookie: cookieHeader(supplier),
        }),
      );
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/portal/catalogs?error=too_large");
      expect(counter.pulled).toBeLessThanOrEqual(MAX_UPLOAD_BYTES + 2 * CHUNK);
      expect(await service().database.db.catalogRevision.count()).toBe(revisions);
    },
  );

  it("a form that is no multipart body gets the form-expired answer, not a 500", async () => {
    const supplier = await signedInAgent("supplier@demo.test", "Supplier#2026");
    const response = await ROUTES["/interaction/catalogs"].POST(
      post("/interaction/catalogs", "--x\r\ngarbage", {
        "content-type": "multipart/form-data; boundary=x",
        cookie: cookieHeader(supplier),
      }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/portal/catalogs?error=form_expired");
  });
});
