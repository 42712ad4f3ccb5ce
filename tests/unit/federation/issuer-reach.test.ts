/** Whom a trusted issuer may speak for: the companies and email domains the operator named, never by email an operator. */
import { describe, expect, it } from "vitest";
import { issuerReaches, type ReachableUser } from "@/lib/oauth/federation/issuer-reach";
import type { IssuerReach, SubjectMapping } from "@/lib/store/models/trusted-issuer";

const reach: IssuerReach = { companies: ["lens-co"], emailDomains: ["lens.example"] };
const user = (email: string, companyId: string, kind = "eye_care_professional"): ReachableUser => ({
  email,
  companyId,
  company: { kind },
});

describe("issuerReaches", () => {
  it.each<[string, IssuerReach | null, SubjectMapping, ReachableUser, boolean]>([
    ["a user of a named company", reach, "email", user("ann@other.example", "lens-co"), true],
    ["a user with an address in a named domain", reach, "email", user("ann@lens.example", "other-co"), true],
    ["a user of neither", reach, "email", user("ann@other.example", "other-co"), false],
    ["an address in a subdomain of a named domain", reach, "email", user("ann@eu.lens.example", "other-co"), false],
    [
      "an address in a domain that ends like a named one",
      reach,
      "email",
      user("ann@badlens.example", "other-co"),
      false,
    ],
    ["a domain named only in the local part", reach, "email", user("lens.example@other.example", "other-co"), false],
    ["the last @ decides the domain", reach, "email", user('"a@other.example"@lens.example', "other-co"), true],
    [
      "a domain in other case (addresses are stored in lower case)",
      reach,
      "email",
      user("ann@LENS.example", "x"),
      false,
    ],
    ["anyone, for an issuer without a reach", null, "email", user("ann@lens.example", "lens-co"), false],
    ["anyone, for an issuer without a reach, by link", null, "link", user("ann@lens.example", "lens-co"), false],
    [
      "an operator by email, even in a named company",
      reach,
      "email",
      user("op@lens.example", "lens-co", "operator"),
      false,
    ],
    [
      "an operator linked by the operator, within the reach",
      reach,
      "link",
      user("op@lens.example", "lens-co", "operator"),
      true,
    ],
    [
      "an operator linked by the operator, outside the reach",
      reach,
      "link",
      user("op@ops.example", "ops", "operator"),
      false,
    ],
    ["a supplier's user by email", reach, "email", user("sam@lens.example", "supplier-co", "supplier"), true],
    [
      "a user by link within the reach",
      { companies: [], emailDomains: ["lens.example"] },
      "link",
      user("ann@lens.example", "x"),
      true,
    ],
  ])("%s", (_, issuerReach, subjectMapping, reachable, reaches) => {
    expect(issuerReaches({ reach: issuerReach, subjectMapping }, reachable)).toBe(reaches);
  });
});
