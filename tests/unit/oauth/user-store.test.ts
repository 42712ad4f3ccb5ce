import { MAX_CACHED_USERS } from "@/lib/config/policy";
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/prisma";
import { forgetUser, prismaUserStore } from "@/lib/store/user-store";

/** A database that counts the user reads it answers. */
function countingDb() {
  const reads: string[] = [];
  const db = {
    user: {
      findUnique: async ({ where }: { where: { id: string } }) => (
        reads.push(where.id),
        { id: where.id, active: true }
      ),
    },
  };
  return { db: db as unknown as Db, reads };
}

afterEach(() => forgetUser());

describe("the user cache of the token endpoint", () => {
  it("reads a user once per USER_CACHE_SECONDS", async () => {
    const { db, reads } = countingDb();
    await prismaUserStore(db).findActive("u1", 1_000);
    await prismaUserStore(db).findActive("u1", 5_000);
    expect(reads).toEqual(["u1"]);
    await prismaUserStore(db).findActive("u1", 6_001);
    expect(reads).toEqual(["u1", "u1"]);
  });

  it(`keeps at most ${MAX_CACHED_USERS} users, dropping the longest loaded first`, async () => {
    const { db, reads } = countingDb();
    for (let index = 0; index <= MAX_CACHED_USERS; index++) await prismaUserStore(db).findActive(`u${index}`, 1_000);
    expect(reads).toHaveLength(MAX_CACHED_USERS + 1);
    await prismaUserStore(db).findActive(`u${MAX_CACHED_USERS}`, 1_000); // the newest is still there
    await prismaUserStore(db).findActive("u1", 1_000); // the second oldest too
    expect(reads).toHaveLength(MAX_CACHED_USERS + 1);
    await prismaUserStore(db).findActive("u0", 1_000); // the oldest was dropped
    expect(reads).toHaveLength(MAX_CACHED_USERS + 2);
  });
});
