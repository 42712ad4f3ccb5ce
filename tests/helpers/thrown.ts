import { expect } from "vitest";

/** Runs `action`, expects it to throw an instance of `type`, and returns that error for closer checks. */
export function thrown<E extends Error>(type: new (...args: never[]) => E, action: () => unknown): E {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected ${type.name} to be thrown`);
}
