/**
 * Authorization requests between their steps: pushed requests (RFC 9126) waiting for their user agent, and consent
 * prompts (interactions) waiting for their decision. Both are found by a random value only their holder has, stored
 * as its SHA-256; the Prisma implementation is interaction-store.ts and pushed-request-store.ts.
 */
import type { Db } from "@/lib/db/prisma";
import { findInteraction, openInteraction, takeInteraction, type OpenInteraction } from "@/lib/store/interaction-store";
import {
  countWaitingPushedRequests,
  startPushedRequest,
  storePushedRequest,
  usePushedRequest,
  type PushedRequestRefusal,
} from "@/lib/store/pushed-request-store";

export interface AuthorizationRequestStore {
  /** Opens the consent prompt of a validated request for a login session; the value for the consent URL. */
  openInteraction(
    sessionId: string,
    clientId: string,
    parameters: Iterable<[string, string]>,
    now: Date,
  ): Promise<string>;
  /** The session's open prompt with this value, or undefined (unknown, expired, decided, or another session's). */
  findInteraction(id: string, sessionId: string, now: Date): Promise<OpenInteraction | undefined>;
  /** Takes the prompt for its decision; of concurrent decisions exactly one gets it. */
  takeInteraction(id: string, sessionId: string, now: Date): Promise<OpenInteraction | undefined>;
  /** Stores a client's pushed parameters; the random part of the request_uri. */
  push(clientId: string, parameters: Iterable<[string, string]>, now: Date): Promise<string>;
  /** How many of a client's pushed requests wait for their user agent (not started, not expired). */
  countWaiting(clientId: string, now: Date): Promise<number>;
  /**
   * The parameters of the client's pushed request, which the user agent brought within its minute, and when it first
   * did (which extends its life to a sign-in's); otherwise why it is refused.
   */
  startPushed(
    id: string,
    clientId: string,
    now: Date,
  ): Promise<{ parameters: URLSearchParams; startedAt: Date } | PushedRequestRefusal>;
  /** Marks the pushed request used by the authorization response it led to; false when it was used already. */
  usePushed(id: string, now: Date): Promise<boolean>;
}

export function prismaAuthorizationRequestStore(db: Db): AuthorizationRequestStore {
  return {
    openInteraction: (sessionId, clientId, parameters, now) =>
      openInteraction(db, sessionId, clientId, parameters, now),
    findInteraction: (id, sessionId, now) => findInteraction(db, id, sessionId, now),
    takeInteraction: (id, sessionId, now) => takeInteraction(db, id, sessionId, now),
    push: (clientId, parameters, now) => storePushedRequest(db, clientId, parameters, now),
    countWaiting: (clientId, now) => countWaitingPushedRequests(db, clientId, now),
    startPushed: (id, clientId, now) => startPushedRequest(db, id, clientId, now),
    usePushed: (id, now) => usePushedRequest(db, id, now),
  };
}
