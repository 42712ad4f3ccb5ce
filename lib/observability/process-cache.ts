/**
 * A value shared by everything in this Node process. The Next.js bundle and the lean HTTP front of scripts/serve.ts
 * load OptiGate's modules separately; caches kept here are the same for both, so an invalidation by one is seen by
 * the other.
 */
export function processCache<T>(name: string, create: () => T): T {
  const store = globalThis as unknown as Record<symbol, T>;
  const key = Symbol.for(`optigate.${name}`);
  store[key] ??= create();
  return store[key];
}
