/** Solutions are parsed only when they have the shape of a v2 payload and a payload's size; anything else is null. */
import { describe, expect, it } from "vitest";
import { createProofChallenge } from "@/lib/proof-of-work/challenge";
import { MAX_PROOF_PAYLOAD_LENGTH, parseProofPayload } from "@/lib/proof-of-work/proof-payload";
import { solveProofInBrowser } from "@/lib/proof-of-work/solve-in-browser";

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

describe("proof payloads", () => {
  it("reads what the browser's solver sends, within the length bound", async () => {
    const challenge = await createProofChallenge({ difficulty: 1000 } as never, "k".repeat(32), "login");
    const payload = (await solveProofInBrowser(challenge, () => {}, new AbortController()))!;
    expect(payload.length).toBeLessThan(MAX_PROOF_PAYLOAD_LENGTH);
    expect(parseProofPayload(payload)).toMatchObject({
      challenge: { parameters: { algorithm: "SHA-256", data: { purpose: "login", max: 1000 } } },
      solution: { counter: expect.any(Number) },
    });
  });

  it("refuses what is no payload", () => {
    const good = {
      challenge: {
        parameters: { algorithm: "SHA-256", nonce: "ab", salt: "cd", cost: 1, keyLength: 32, keyPrefix: "ef" },
        signature: "01",
      },
      solution: { counter: 3, derivedKey: "ff" },
    };
    expect(parseProofPayload(encode({ ...good, challenge: { ...good.challenge, parameters: {} } }))).toBeNull();
    expect(parseProofPayload(encode({ ...good, solution: { counter: -1, derivedKey: "ff" } }))).toBeNull();
    expect(parseProofPayload(encode({ ...good, solution: { counter: 1, derivedKey: "zz" } }))).toBeNull();
    expect(parseProofPayload(encode([good]))).toBeNull();
    expect(parseProofPayload("not base64!")).toBeNull();
    expect(parseProofPayload(Buffer.from("{").toString("base64"))).toBeNull();
    expect(parseProofPayload("A".repeat(MAX_PROOF_PAYLOAD_LENGTH + 1))).toBeNull();
  });
});
