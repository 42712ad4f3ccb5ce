import { generateKeyPairSync, sign, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { derToJoseSignature, joseToDerSignature } from "@/lib/jwt/ecdsa-signature";

const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const p1363 = { key: publicKey, dsaEncoding: "ieee-p1363" as const };

describe("ECDSA signatures between DER and JWS form", () => {
  // 600 signatures hold halves with leading zero bytes (1 in 128 each) and with the high bit set (1 in 2).
  it("turns node:crypto's DER into r||s that verifies as JWS, and back", () => {
    let shortHalves = 0;
    for (let i = 0; i < 600; i++) {
      const data = Buffer.from(`message ${i}`);
      const der = sign("sha256", data, privateKey);
      const jose = derToJoseSignature(der, 32);
      expect(jose).toHaveLength(64);
      expect(verify("sha256", data, p1363, jose)).toBe(true);
      expect(joseToDerSignature(jose, 32)).toEqual(der);
      if (jose[0] === 0 || jose[32] === 0) shortHalves++;
    }
    expect(shortHalves).toBeGreaterThan(0);
  });

  it("turns a JWS signature that node:crypto made into DER that verifies with the bare key", () => {
    for (let i = 0; i < 200; i++) {
      const data = Buffer.from(`proof ${i}`);
      const jose = sign("sha256", data, { key: privateKey, dsaEncoding: "ieee-p1363" });
      const der = joseToDerSignature(jose, 32)!;
      expect(verify("sha256", data, publicKey, der)).toBe(true);
      expect(verify("sha256", Buffer.from(`other ${i}`), publicKey, der)).toBe(false);
    }
  });

  it("writes the smallest INTEGERs: zeros dropped, one kept before a high bit", () => {
    const halves = Buffer.concat([Buffer.alloc(31), Buffer.of(0x05), Buffer.of(0x80), Buffer.alloc(31, 0x11)]);
    const der = joseToDerSignature(halves, 32)!;
    expect(der.subarray(0, 5)).toEqual(Buffer.of(0x30, 3 + 35, 0x02, 1, 0x05));
    expect(der.subarray(5, 8)).toEqual(Buffer.of(0x02, 33, 0x00));
    expect(derToJoseSignature(der, 32)).toEqual(halves);
  });

  it("refuses a JWS signature of the wrong length", () => {
    expect(joseToDerSignature(Buffer.alloc(63, 1), 32)).toBeNull();
    expect(joseToDerSignature(Buffer.alloc(65, 1), 32)).toBeNull();
    expect(joseToDerSignature(Buffer.alloc(0), 32)).toBeNull();
  });
});
