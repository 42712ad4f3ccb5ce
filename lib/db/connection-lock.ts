/**
 * The turn-taking on an SQLite database between Prisma's interactive transactions and OptiGate's own statements.
 * better-sqlite3 is synchronous: a statement on OptiGate's connection that met a write lock held by an open Prisma
 * transaction (on Prisma's connection, in this same process) would wait for SQLite's busy timeout while blocking the
 * very event loop that transaction needs to finish. So a Prisma transaction holds this lock from BEGIN to COMMIT or
 * ROLLBACK, and OptiGate's statements take it for the instant they run: they wait for the transaction, never join it,
 * and never poll.
 */
export class ConnectionLock {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves, in turn, with the function that gives the lock back. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const turn = this.tail.then(() => release);
    this.tail = this.tail.then(() => held);
    return turn;
  }

  async run<T>(work: () => T): Promise<T> {
    const release = await this.acquire();
    try {
      return work();
    } finally {
      release();
    }
  }
}
