/**
 * A store made of functions that take the database client first: the same functions with the client given once.
 * The stores kept as plain functions (tests and other stores call them with a transaction) are exposed this way.
 */
type BoundMethods<M> = {
  [K in keyof M]: M[K] extends (db: never, ...args: infer A) => infer R ? (...args: A) => R : never;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each method takes its own arguments after the client
type DbMethods<D> = Record<string, (db: D, ...args: any[]) => unknown>;

export function bindDb<D, M extends DbMethods<D>>(db: D, methods: M): BoundMethods<M> {
  const bound: Record<string, (...args: unknown[]) => unknown> = {};
  for (const [name, method] of Object.entries(methods)) bound[name] = (...args) => method(db, ...args);
  return bound as BoundMethods<M>;
}
