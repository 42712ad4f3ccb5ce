/**
 * A WebAuthn authenticator in software for the integration tests: an ES256 key pair and a credential id, making the
 * responses a browser would send for registration (attestation "none") and for sign-in, from the options OptiGate
 * handed out. Each part can be spoiled (origin, relying party, flags, counter, signature) to see the refusals.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

const FLAG = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40 } as const;

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

function uint32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

export interface Spoilers {
  origin?: string;
  rpId?: string;
  type?: string;
  /** user verification: true unless said otherwise */
  verified?: boolean;
  /** a key synced in software (backup eligible and backed up) */
  synced?: boolean;
  counter?: number;
  challenge?: string;
}

export class SoftAuthenticator {
  readonly credentialId = b64url(randomBytes(32));
  private readonly keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
  counter = 0;

  constructor(
    readonly origin: string,
    readonly rpId: string,
  ) {}

  private coseKey(): Uint8Array {
    const jwk = (this.keys.publicKey as KeyObject).export({ format: "jwk" }) as { x: string; y: string };
    const key = new Map<number, number | Uint8Array>();
    key.set(1, 2);
    key.set(3, -7);
    key.set(-1, 1);
    key.set(-2, new Uint8Array(Buffer.from(jwk.x, "base64url")));
    key.set(-3, new Uint8Array(Buffer.from(jwk.y, "base64url")));
    return isoCBOR.encode(key);
  }

  private flags(spoil: Spoilers, attested: boolean): number {
    let flags = FLAG.up | (spoil.verified === false ? 0 : FLAG.uv);
    if (spoil.synced) flags |= FLAG.be | FLAG.bs;
    return attested ? flags | FLAG.at : flags;
  }

  private clientData(type: string, challenge: string, spoil: Spoilers): string {
    return b64url(
      Buffer.from(
        JSON.stringify({
          type: spoil.type ?? type,
          challenge: spoil.challenge ?? challenge,
          origin: spoil.origin ?? this.origin,
          crossOrigin: false,
        }),
      ),
    );
  }

  /** The browser's answer to registration options (as JSON text), as `startRegistration` gives it. */
  register(options: { challenge: string }, spoil: Spoilers = {}): string {
    const id = Buffer.from(this.credentialId, "base64url");
    const length = Buffer.alloc(2);
    length.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(spoil.rpId ?? this.rpId),
      Buffer.from([this.flags(spoil, true)]),
      uint32(spoil.counter ?? this.counter),
      Buffer.alloc(16),
      length,
      id,
      this.coseKey(),
    ]);
    const attestation = new Map<string, string | Uint8Array | Map<string, string>>();
    attestation.set("fmt", "none");
    attestation.set("attStmt", new Map<string, string>());
    attestation.set("authData", new Uint8Array(authData));
    const attestationObject = isoCBOR.encode(attestation);
    return JSON.stringify({
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: this.clientData("webauthn.create", options.challenge, spoil),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    });
  }

  /** The browser's answer to sign-in options (as JSON text); the counter moves on unless it is spoiled. */
  assert(options: { challenge: string }, spoil: Spoilers = {}): string {
    if (spoil.counter === undefined) this.counter += 1;
    const authData = Buffer.concat([
      sha256(spoil.rpId ?? this.rpId),
      Buffer.from([this.flags(spoil, false)]),
      uint32(spoil.counter ?? this.counter),
    ]);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, spoil);
    const signed = Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, "base64url"))]);
    return JSON.stringify({
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON,
        authenticatorData: b64url(authData),
        signature: b64url(sign("sha256", signed, this.keys.privateKey)),
      },
      clientExtensionResults: {},
    });
  }
}
