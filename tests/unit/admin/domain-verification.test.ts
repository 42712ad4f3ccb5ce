/**
 * A domain proven by its DNS TXT record, with the lookup passed in: the record found (in one or several character
 * strings), none, another value, and a failing lookup, each a DomainVerificationError with its code.
 */
import { describe, expect, it } from "vitest";
import {
  checkVerificationRecord,
  DomainVerificationError,
  newVerificationToken,
  verificationRecord,
  type TxtLookup,
} from "@/lib/admin/domain-verification";

const DOMAIN = "optik-muster.example";
const TOKEN = "k3Jq-token_value";
const NAME = "_optigate-challenge.optik-muster.example";
const VALUE = `optigate-domain-verification=${TOKEN}`;

/** A lookup that answers from a table and remembers the names asked for. */
function tableLookup(records: Record<string, string[][]>, asked: string[] = []): TxtLookup {
  return async (name) => {
    asked.push(name);
    if (name in records) return records[name];
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  };
}

const failing =
  (code: string): TxtLookup =>
  async (name) => {
    throw Object.assign(new Error(`queryTxt ${code} ${name}`), { code });
  };

async function refusal(lookup: TxtLookup): Promise<DomainVerificationError> {
  const error = await checkVerificationRecord(DOMAIN, TOKEN, lookup).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(DomainVerificationError);
  return error as DomainVerificationError;
}

describe("the verification record", () => {
  it("is a TXT record under the domain's _optigate-challenge label, holding the token", () => {
    expect(verificationRecord(DOMAIN, TOKEN)).toEqual({ name: NAME, type: "TXT", value: VALUE });
  });

  it("holds a fresh token of 192 bits each time, in characters DNS carries unquoted", () => {
    const [first, second] = [newVerificationToken(), newVerificationToken()];
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(first).not.toBe(second);
  });
});

describe("checkVerificationRecord", () => {
  it("accepts the record among others, also when split into several character strings", async () => {
    const asked: string[] = [];
    const records = { [NAME]: [["v=spf1 -all"], ["optigate-domain-verification=", "k3Jq-token", "_value"]] };
    await expect(checkVerificationRecord(DOMAIN, TOKEN, tableLookup(records, asked))).resolves.toBeUndefined();
    expect(asked).toEqual([NAME]);
  });

  it.each([
    ["no such name", tableLookup({})],
    ["a name without TXT records", failing("ENODATA")],
    ["an empty answer", tableLookup({ [NAME]: [] })],
  ])("says no_record for %s, naming the record to create", async (_case, lookup) => {
    const error = await refusal(lookup);
    expect(error.code).toBe("no_record");
    expect(error.message).toBe(`there is no TXT record at ${NAME}: create one holding "${VALUE}"`);
  });

  it("says wrong_value for another value, showing the first one found, shortened and without control characters", async () => {
    const other = await refusal(tableLookup({ [NAME]: [["optigate-domain-verification=old"], ["x"]] }));
    expect(other.code).toBe("wrong_value");
    expect(other.message).toBe(
      `the TXT record at ${NAME} holds "optigate-domain-verification=old" and 1 more, not "${VALUE}"`,
    );
    const long = await refusal(tableLookup({ [NAME]: [[`a\u0007${"b".repeat(200)}`]] }));
    expect(long.message).toContain(`holds "a?${"b".repeat(98)}…", not`);
  });

  it.each([
    ["ESERVFAIL", "failed (ESERVFAIL)"],
    ["ETIMEOUT", "failed (no answer in time)"],
    ["ECANCELLED", "failed (no answer in time)"],
    ["ECONNREFUSED", "failed (ECONNREFUSED)"],
  ])("says dns_failure when the lookup fails with %s", async (code, said) => {
    const error = await refusal(failing(code));
    expect(error.code).toBe("dns_failure");
    expect(error.message).toBe(`the DNS lookup of ${NAME} ${said}; try again later`);
    expect((error.cause as { code: string }).code).toBe(code);
  });
});
