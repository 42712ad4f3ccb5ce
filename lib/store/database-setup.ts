/**
 * What start-up needs of the database beneath the stores: bringing its schema up to this version, and telling a write
 * that met another instance's (which is preparing the same database) from a real failure.
 */
import { isUniqueViolation } from "@/lib/db/unique-violation";

export { applyMigrations, MigrationError } from "@/lib/db/migrator";

/** Prisma's code for an operation that waited too long, as for SQLite's write lock while another process prepares. */
const TIMED_OUT = "P1008";

/** The write met a row another process wrote first, or waited longer than the busy timeout for its lock. */
export const isConcurrentWrite = (error: unknown): boolean =>
  isUniqueViolation(error) || (error as { code?: string } | null)?.code === TIMED_OUT;
