/**
 * The breached-password lookup against a real range API on the loopback: only the first five hex digits of the SHA-1
 * leave, with `Add-Padding: true`; a listed password is refused with its own reason, padding lines (count 0) are not
 * breaches; an outage, an address the outbound rules do not let through and a time-out never block anybody (the estimate
 * alone decides) and are counted in the metrics.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_ADDRESS_RANGES, parseAddressRanges } from "@/lib/config/address-ranges";
import { PASSWORD_BREACH_TIMEOUT_MS } from "@/lib/config/policy";
import { checkNewPassword } from "@/lib/crypto/password-policy";
import { breachedPasswordCheck } from "@/lib/http/breached-passwords";
import { metrics } from "@/lib/observability/metrics";
import type { BreachCheckResult } from "@/lib/observability/metrics";
import { RangeServer } from "../../helpers/range-server";

const BREACHED = "lesebrille kompass morgentau";
const PADDED = "gleitsicht wolkenkratzer bahnhof";
const UNLISTED = "quitte ofenrohr kranich nebel";
const server = new RangeServer({ [BREACHED]: 42 }, [PADDED]);
const LOOPBACK = parseAddressRanges("127.0.0.0/8");

beforeAll(() => server.start());
afterAll(() => server.close());

const checkAt = (url: string, timeoutMs?: number, outboundAllow = LOOPBACK) =>
  breachedPasswordCheck({ passwordBreach: { url }, production: false, outboundAllow }, timeoutMs)!;

async function counted(result: BreachCheckResult): Promise<number> {
  const { values } = await metrics.passwordBreachChecks.get();
  return values.find((value) => value.labels.result === result)?.value ?? 0;
}

/** What `work` added to the count of `result`. */
async function countedDuring(result: BreachCheckResult, work: () => Promise<unknown>): Promise<number> {
  const before = await counted(result);
  await work();
  return (await counted(result)) - before;
}

const rules = (url: string, timeoutMs?: number) => ({ minLength: 12, person: {}, breached: checkAt(url, timeoutMs) });
const refusal = (password: string, url = server.url, timeoutMs?: number) =>
  checkNewPassword(password, rules(url, timeoutMs)).then(
    () => "accepted",
    (error: { code: string }) => error.code,
  );

describe("the breached-password lookup", () => {
  it("asks for the range of the first five hex digits only, padded, and finds a listed password", async () => {
    server.requests.length = 0;
    const hash = createHash("sha1").update(BREACHED).digest("hex").toUpperCase();
    expect(await countedDuring("breached", async () => expect(await checkAt(server.url)(BREACHED)).toBe(true))).toBe(1);
    expect(server.requests).toEqual([{ path: `/range/${hash.slice(0, 5)}`, padding: "true" }]);
  });

  it("refuses a listed password that the estimate accepts, with its own reason", async () => {
    expect(await refusal(BREACHED)).toBe("password_breached");
    expect(await refusal(UNLISTED)).toBe("accepted");
    // the estimate comes first: a guessable password is refused as such, without asking
    server.requests.length = 0;
    expect(await refusal("Password1234")).toBe("password_too_guessable");
    expect(server.requests).toEqual([]);
  });

  it("takes the padding's lines of count 0 for what they are: no breach", async () => {
    const padded = await countedDuring("not_breached", async () => expect(await refusal(PADDED)).toBe("accepted"));
    expect(padded).toBe(1);
  });

  it("lets the estimate alone decide when the range API is down, and counts it", async () => {
    server.mode = "unavailable";
    try {
      expect(await countedDuring("unavailable", async () => expect(await refusal(BREACHED)).toBe("accepted"))).toBe(1);
    } finally {
      server.mode = "answer";
    }
    const closed = new RangeServer({ [BREACHED]: 1 });
    await closed.start();
    const url = closed.url;
    await closed.close();
    expect(await countedDuring("unavailable", async () => expect(await refusal(BREACHED, url)).toBe("accepted"))).toBe(
      1,
    );
  });

  it("gives up on a range API that does not answer, by the policy's time-out or a shorter one", async () => {
    server.mode = "silent";
    try {
      let started = performance.now();
      expect(
        await countedDuring("timeout", async () => expect(await refusal(BREACHED, server.url, 200)).toBe("accepted")),
      ).toBe(1);
      expect(performance.now() - started).toBeLessThan(1000);
      started = performance.now();
      expect(await checkAt(server.url)(BREACHED)).toBe(false);
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(PASSWORD_BREACH_TIMEOUT_MS - 50);
      expect(waited).toBeLessThan(PASSWORD_BREACH_TIMEOUT_MS + 1000);
    } finally {
      server.mode = "answer";
    }
  });

  it("reaches a mirror on the loopback only as OUTBOUND_ALLOW lets it", async () => {
    server.requests.length = 0;
    const refused = checkAt(server.url, undefined, NO_ADDRESS_RANGES);
    expect(await countedDuring("unavailable", async () => expect(await refused(BREACHED)).toBe(false))).toBe(1);
    expect(server.requests).toEqual([]);
  });

  it("is not there when PASSWORD_BREACH_CHECK is off", () => {
    expect(breachedPasswordCheck({ passwordBreach: null, production: false, outboundAllow: LOOPBACK })).toBeUndefined();
  });
});
