/**
 * ECDSA signatures between the two forms: JWS (RFC 7518 §3.4) writes r||s, each as long as the curve's field;
 * node:crypto signs and verifies DER (a SEQUENCE of two INTEGERs) with a bare KeyObject. Node 24 signs at half the
 * rate when asked for r||s through an options object (`{ key, dsaEncoding }`), so OptiGate converts here instead.
 */

/** The DER signature node:crypto made, as a JWS signature of `size`-byte halves (32 for P-256). */
export function derToJoseSignature(der: Buffer, size: number): Buffer {
  // SEQUENCE, its length (one byte for every curve up to P-384; long form 0x81 for P-521), then the two INTEGERs.
  let offset = der[1] === 0x81 ? 3 : 2;
  const out = Buffer.alloc(2 * size);
  for (let half = 0; half < 2; half++) {
    const length = der[offset + 1];
    let start = offset + 2;
    let bytes = length;
    // An INTEGER is signed: a leading zero keeps a high bit from reading as negative.
    while (bytes > size && der[start] === 0) {
      start++;
      bytes--;
    }
    der.copy(out, half * size + (size - bytes), start, start + bytes);
    offset += 2 + length;
  }
  return out;
}

/** An INTEGER of DER for one unsigned half: leading zeros dropped, one put back when the high bit is set. */
function derInteger(half: Buffer): Buffer {
  let start = 0;
  while (start < half.length - 1 && half[start] === 0) start++;
  const value = half.subarray(start);
  const padded = value[0] & 0x80 ? Buffer.concat([Buffer.of(0), value]) : value;
  return Buffer.concat([Buffer.of(0x02, padded.length), padded]);
}

/** A JWS signature (r||s) as DER for node:crypto; null when its length cannot be one of `size`-byte halves. */
export function joseToDerSignature(signature: Buffer, size: number): Buffer | null {
  if (signature.length !== 2 * size) return null;
  const body = Buffer.concat([derInteger(signature.subarray(0, size)), derInteger(signature.subarray(size))]);
  const length = body.length < 0x80 ? Buffer.of(body.length) : Buffer.of(0x81, body.length);
  return Buffer.concat([Buffer.of(0x30), length, body]);
}
