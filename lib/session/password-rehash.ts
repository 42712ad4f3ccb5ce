/**
 * A right password whose stored hash is of another algorithm or cost than today's (an scrypt hash, since Argon2id) is
 * hashed anew in the request that proved it: started as soon as the password matched, so that it runs on the thread
 * pool while the request does its writes, and awaited before the answer. The new hash replaces the old one only while
 * the old one is stored: a change of password made meanwhile wins. A failure costs the sign-in nothing; the next one
 * tries again.
 */
import { hashPassword, needsRehash } from "@/lib/crypto/password";
import { logger } from "@/lib/observability/logger";
import type { User } from "@/lib/store/models/user";
import type { UserStore } from "@/lib/store/user-store";

export function rehashOutdatedPassword(
  users: Pick<UserStore, "replacePasswordHash">,
  user: Pick<User, "id" | "passwordHash">,
  password: string,
): Promise<void> {
  if (!needsRehash(user.passwordHash)) return Promise.resolve();
  return hashPassword(password)
    .then((replacement) => users.replacePasswordHash(user.id, user.passwordHash, replacement))
    .then(
      () => undefined,
      (error: Error) => logger.warn({ userId: user.id, reason: error.message }, "could not hash a password anew"),
    );
}
