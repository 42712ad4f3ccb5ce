/**
 * A path whose percent-encoding does not decode gets 400 on every route and page (a POST where the method is not
 * allowed may get 405 first), whichever server answers: the
 * Node front of the start script, or Next.js alone (E2E_SERVER=next), where the proxy refuses it before Next's
 * router fails on dynamic segments with a 500 (the third security review found /admin/clients/%ZZ).
 */
import { expect, test } from "@playwright/test";
import { rawRequest } from "./raw-http";

const BROKEN = ["%ZZ", "%E2%82", "%", "a%2", "%C0%AF", "%ED%A0%80", "%FF%FE"];
const PREFIXES = [
  "/admin/clients/",
  "/v2/catalogs/",
  "/v2/supplierregistrations/",
  "/v2/",
  "/portal/",
  "/admin/",
  "/connect/",
  "/",
  "/interaction/",
  "/.well-known/",
];

test("every undecodable path gets 400 (or 405) and no 5xx", async () => {
  const port = Number(process.env.E2E_PORT);
  const answers: string[] = [];
  for (const prefix of PREFIXES) {
    for (const broken of BROKEN) {
      for (const method of ["GET", "POST"]) {
        const response = await rawRequest(port, {
          method,
          target: `${prefix}${broken}`,
          headers: [["Content-Length", "0"]],
        });
        const expected =
          method === "GET" ? response.status === 400 : response.status === 400 || response.status === 405;
        if (!expected) answers.push(`${method} ${prefix}${broken} ${response.status}`);
      }
    }
  }
  expect(answers).toEqual([]);
  // A well-encoded path next to them is unaffected.
  expect((await rawRequest(port, { method: "GET", target: "/admin/clients/demo-web%2Dx" })).status).not.toBe(400);
});
