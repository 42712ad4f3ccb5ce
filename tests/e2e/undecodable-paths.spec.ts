/**
 * A path whose percent-encoding does not decode never gets a 5xx, whichever server answers: the Node front of the
 * start script, or Next.js alone (E2E_SERVER=next). Where Next's router would decode it itself, on the routes with
 * dynamic segments (the third security review found /admin/clients/%ZZ answering 500), it gets 400; elsewhere a 4xx
 * (400 from the Node front, 404 or 405 from Next.js).
 */
import { expect, test } from "@playwright/test";
import { rawRequest } from "./raw-http";

const BROKEN = ["%ZZ", "%E2%82", "%", "a%2", "%C0%AF", "%ED%A0%80", "%FF%FE"];
const DYNAMIC = ["/admin/clients/", "/v2/catalogs/", "/v2/supplierregistrations/", "/v2/"];
const STATIC = ["/portal/", "/admin/", "/connect/", "/", "/interaction/", "/.well-known/"];

test("every undecodable path gets a 4xx, and 400 where a route has dynamic segments", async () => {
  const port = Number(process.env.E2E_PORT);
  const wrong: string[] = [];
  for (const prefix of [...DYNAMIC, ...STATIC]) {
    for (const broken of BROKEN) {
      for (const method of ["GET", "POST"]) {
        const response = await rawRequest(port, {
          method,
          target: `${prefix}${broken}`,
          headers: [["Content-Length", "0"]],
        });
        const expected =
          DYNAMIC.includes(prefix) && method === "GET"
            ? response.status === 400
            : response.status >= 400 && response.status < 500;
        if (!expected) wrong.push(`${method} ${prefix}${broken} ${response.status}`);
      }
    }
  }
  expect(wrong).toEqual([]);
  // A well-encoded path next to them is unaffected.
  expect((await rawRequest(port, { method: "GET", target: "/admin/clients/demo-web%2Dx" })).status).not.toBe(400);
});
