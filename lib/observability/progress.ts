/**
 * How a long job (a purge, a catalog or users import, migrations) tells its caller how far it has come, without
 * knowing who listens: the operator CLI draws it on a terminal (lib/cli/progress.ts), the server passes none.
 */

/** `done` units of work so far, of `total` when the job knows it (it may learn it only once it has started). */
export type ProgressListener = (done: number, total?: number) => void;
