type Callable = (...args: never[]) => unknown;
type OnDemand<F extends Callable> = (...args: Parameters<F>) => Promise<Awaited<ReturnType<F>>>;

/**
 * An endpoint whose module loads at its first call. The route table names every endpoint, and each process (the
 * lean front, a Next.js route module) then holds only the code of the endpoints it really serves: loading them all
 * up front cost every process the forms, pages and dictionaries it never uses.
 */
export function fromModule<Module extends Record<Name, Callable>, Name extends keyof Module>(
  load: () => Promise<Module>,
  name: Name,
): OnDemand<Module[Name]> {
  const loaded = loadOnce(load);
  const call = async (...args: Parameters<Module[Name]>): Promise<unknown> => (await loaded())[name](...args);
  return call as OnDemand<Module[Name]>;
}

/** The value `load` resolves to, loaded at the first call; a failed load is tried again at the next. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () =>
    (value ??= load().catch((error: unknown) => {
      value = undefined;
      throw error;
    }));
}
