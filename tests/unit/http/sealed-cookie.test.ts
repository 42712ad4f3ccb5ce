/** Sealed one-time cookies open only as the cookie they were sealed for, under the key they were sealed with. */
import { describe, expect, it } from "vitest";
import { sealedCookie, unsealedCookieValue } from "@/lib/http/sealed-cookie";

const SECRET = "unit-test-secret-key-0123456789abcdef";
const options = { secretKey: SECRET, publicUrl: "https://id.example", path: "/portal/catalogs" };
const valueOf = (cookie: string) => cookie.slice(cookie.indexOf("=") + 1, cookie.indexOf(";"));

describe("sealed cookies", () => {
  const sealed = valueOf(sealedCookie("optigate_catalog_import", { ok: true }, options));

  it("opens as the cookie it was sealed for", () => {
    expect(unsealedCookieValue("optigate_catalog_import", sealed, SECRET)).toEqual({ ok: true });
  });

  it.each([
    ["as another cookie", "optigate_registration_form", sealed, SECRET],
    ["under another key", "optigate_catalog_import", sealed, "another-secret-key-0123456789abcdefgh"],
    ["when changed", "optigate_catalog_import", `${sealed.slice(0, -2)}${sealed.endsWith("AA") ? "BB" : "AA"}`, SECRET],
    ["when absent", "optigate_catalog_import", undefined, SECRET],
  ])("does not open %s", (_, name, value, secret) => {
    expect(unsealedCookieValue(name, value, secret)).toBeUndefined();
  });
});
