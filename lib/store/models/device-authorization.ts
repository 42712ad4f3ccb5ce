/** A device's authorization request (RFC 8628), as the device authorization endpoint, /device and the token endpoint use it. */
import type { AuthenticationMethod } from "@/lib/store/models/authentication";

export type DeviceAuthorizationStatus = "pending" | "approved" | "denied";

/** What a new request holds besides its device code. */
export interface NewDeviceAuthorization {
  clientId: string;
  /** The keyed hash of the normalized user code (lib/oauth/device/user-code.ts). */
  userCodeHash: string;
  scopes: string[];
  /** RFC 8707: the resource servers asked for (none: the default audience). */
  resources: string[];
  /** The wider network the request came from, to show at /device; null when its address is unknown. */
  network: string | null;
}

/** What the person who allowed a request granted, and how their session signed in. */
export interface DeviceGrant {
  userId: string;
  scopes: string[];
  authTime: Date;
  amr: AuthenticationMethod[];
  consentId: string | null;
}

export interface DeviceAuthorization {
  id: string;
  clientId: string;
  scopes: string[];
  resources: string[];
  network: string | null;
  status: DeviceAuthorizationStatus;
  /** RFC 8628 §3.5: seconds between polls, and when the next poll is on time. */
  pollInterval: number;
  nextPollAt: Date;
  createdAt: Date;
  expiresAt: Date;
  redeemedAt: Date | null;
  /** Once approved: what was granted. */
  grant: DeviceGrant | null;
}

/** A person's decision at /device. */
export type DeviceDecision = { approve: DeviceGrant } | { deny: { userId: string } };
