/**
 * Password hashes run one per core the process may use (os.availableParallelism, which a taskset or cpuset narrows):
 * more at once would only share those cores, each holding its memory meanwhile (19 MiB for Argon2id, 128 MiB for
 * scrypt) and evicting the others' from the caches. The rest wait their turn, first come first served.
 */
import { availableParallelism } from "node:os";

export const HASHING_SLOTS = availableParallelism();
let running = 0;
const waiting: (() => void)[] = [];

export async function inHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running < HASHING_SLOTS) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, so that no newcomer overtakes it.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}
