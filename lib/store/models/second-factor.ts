/** A user's second factors as the stores return them: passkeys, an authenticator app, and the counts. */

export interface SecondFactorCount {
  passkeys: number;
  /** a confirmed authenticator app */
  totp: boolean;
  /** the user's company requires a second factor */
  required: boolean;
}

export interface TotpFactor {
  userId: string;
  /** The app's secret, sealed with SECRET_KEY by the caller. */
  sealedSecret: string;
  confirmedAt: Date | null;
  lastUsedStep: number | null;
  /** While waiting for its first code: the login session that started it, the only one that may confirm it. */
  loginSessionId: string | null;
  createdAt: Date;
}

export interface StoredPasskey {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type ChallengePurpose = "register" | "sign_in";

/** A WebAuthn challenge that came back in a response: counted once until it expires. */
export interface UsedChallenge {
  hash: string;
  purpose: ChallengePurpose;
  userId?: string;
  expiresAt: Date;
}
