/** Whether a write failed on a unique key (Prisma's P2002, on both databases): a concurrent twin wrote the row first. */
export const isUniqueViolation = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { code?: string }).code === "P2002";
