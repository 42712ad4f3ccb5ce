/**
 * A user's own sign-in sessions as the security page lists them: when each began and was last used, the browser and
 * system its user agent names (read with bowser), and the address it signed in from; ending one, or all but the one
 * in use. Ended sessions' applications are told through the logout channels they registered.
 */
import Bowser from "bowser";
import type { LoginSessionStore } from "@/lib/store/login-session-store";

export interface OwnSession {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** such as "Chrome 131 · Windows"; null when the user agent names no browser */
  browser: string | null;
  ipAddress: string | null;
  current: boolean;
}

/**
 * The browsers and systems shown by name. Bowser takes an unknown browser's name from the user agent itself, which
 * is the caller's text: shown in a security mail, it could say anything ("IT maintenance, no action needed").
 */
const KNOWN_BROWSERS = new Set([
  "Chrome",
  "Chromium",
  "Firefox",
  "Safari",
  "Microsoft Edge",
  "Opera",
  "Vivaldi",
  "Samsung Internet for Android",
  "Yandex Browser",
  "UC Browser",
  "Internet Explorer",
  "Electron",
]);
const KNOWN_SYSTEMS = new Set(["Windows", "macOS", "iOS", "iPadOS", "Android", "Linux", "Chrome OS", "HarmonyOS"]);

/** A browser as a person recognizes it, such as "Chrome 131 · Windows"; null when the user agent names no known one. */
export function describeUserAgent(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os } = Bowser.parse(userAgent);
  if (!browser.name || !KNOWN_BROWSERS.has(browser.name)) return null;
  const major = /^\d{1,4}/.exec(browser.version ?? "")?.[0];
  const system = os.name && KNOWN_SYSTEMS.has(os.name) ? os.name : undefined;
  return [major ? `${browser.name} ${major}` : browser.name, system].filter(Boolean).join(" · ");
}

export async function listOwnSessions(
  loginSessions: LoginSessionStore,
  userId: string,
  currentId: string,
): Promise<OwnSession[]> {
  const sessions = await loginSessions.listCurrent(userId, new Date());
  return sessions.map((session) => ({
    id: session.id,
    createdAt: session.createdAt,
    lastSeenAt: session.lastSeenAt,
    browser: describeUserAgent(session.userAgent),
    ipAddress: session.ipAddress,
    current: session.id === currentId,
  }));
}

/** Ends one of the user's sessions (never another user's): its id in a list, or none when there is no such session. */
export async function endOwnSession(
  loginSessions: LoginSessionStore,
  userId: string,
  sessionId: string,
): Promise<string[]> {
  return (await loginSessions.endOne(userId, sessionId, new Date())) ? [sessionId] : [];
}

/** Ends every session of the user but the one in use; the ended ones' ids. */
export function endOtherOwnSessions(
  loginSessions: LoginSessionStore,
  userId: string,
  currentId: string,
): Promise<string[]> {
  return loginSessions.endAll(userId, new Date(), currentId);
}
