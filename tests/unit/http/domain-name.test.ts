/** Email domains in their stored form: lower-case ASCII, punycode for IDNs, and what is no domain. */
import { describe, expect, it } from "vitest";
import { DomainNameError, emailDomain, normalizeDomain } from "@/lib/http/domain-name";
import { thrown } from "../../helpers/thrown";

describe("normalizeDomain", () => {
  it.each([
    ["example.com", "example.com"],
    ["  Example.COM ", "example.com"],
    ["Bücher.Example", "xn--bcher-kva.example"],
    ["xn--bcher-kva.example", "xn--bcher-kva.example"],
    ["optik-muster.co.uk", "optik-muster.co.uk"],
    ["123.example", "123.example"],
    [`${"a".repeat(63)}.example`, `${"a".repeat(63)}.example`],
  ])("takes %j as %j", (given, stored) => {
    expect(normalizeDomain(given)).toBe(stored);
  });

  it.each([
    ["", "is empty"],
    ["localhost", "is a single label"],
    ["example.com.", "must not end with a dot"],
    ["192.0.2.1", "an IP address is none"],
    ["1.2.3", "an IP address is none"],
    ["[::1]", "no spaces, /, @, :, %, *, brackets"],
    ["example.com/path", "no spaces, /, @, :, %, *, brackets"],
    ["user@example.com", "no spaces, /, @, :, %, *, brackets"],
    ["example.com:443", "no spaces, /, @, :, %, *, brackets"],
    ["*.example.com", "no spaces, /, @, :, %, *, brackets"],
    ["exa mple.com", "no spaces, /, @, :, %, *, brackets"],
    ["ex%41mple.com", "no spaces, /, @, :, %, *, brackets"],
    ["a_b.example", "only letters, digits and hyphens"],
    ["-a.example", "no hyphen first or last"],
    ["a..example", "only letters, digits and hyphens"],
    [`${"a".repeat(64)}.example`, "only letters, digits and hyphens"],
    [`${"a.".repeat(127)}example`, "longer than 253 characters"],
    ["example.123", "is not a domain name"],
  ])("refuses %j: %s", (given, why) => {
    const error = thrown(DomainNameError, () => normalizeDomain(given));
    expect(error.code).toBe("invalid_domain");
    expect(error.message).toContain(why);
  });
});

describe("emailDomain", () => {
  it.each([
    ["kim@Optik-Muster.DE", "optik-muster.de"],
    ["kim@bücher.example", "xn--bcher-kva.example"],
    ["a@b@example.com", "example.com"],
    ["kim@localhost", null],
    ["@example.com", null],
    ["no-at-sign", null],
    ["kim@192.0.2.1", null],
  ])("of %j is %j", (email, domain) => {
    expect(emailDomain(email)).toBe(domain);
  });
});
