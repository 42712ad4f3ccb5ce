/** Users and their companies in memory, with the database store's rules (lib/store/user-store.ts). */
import { randomUUID } from "node:crypto";
import type { UserStore } from "@/lib/store/user-store";
import type { Company, User, UserWithCompany } from "@/lib/store/models/user";
import { copy, type MemoryTables } from "@/lib/store/memory/memory-tables";

/** Adds a company to the tables, as the operator's registry would. */
export function addMemoryCompany(tables: MemoryTables, company: Company): void {
  tables.companies.set(company.id, copy(company));
}

export function memoryUserStore(tables: MemoryTables): UserStore {
  const withCompany = (user: User | undefined): UserWithCompany | null => {
    const company = user && tables.companies.get(user.companyId);
    return user && company ? copy({ ...user, company }) : null;
  };
  const byEmail = (email: string) => [...tables.users.values()].find((user) => user.email === email);
  const update = (userId: string, change: Partial<User>) => {
    const user = tables.users.get(userId);
    if (!user) throw new Error(`no user ${userId}`);
    Object.assign(user, change, { updatedAt: new Date() });
  };
  return {
    async findActive(userId) {
      const user = withCompany(tables.users.get(userId));
      return user?.active ? user : null;
    },
    find: async (userId) => withCompany(tables.users.get(userId)),
    findByEmail: async (email) => copy(byEmail(email) ?? null),
    findWithCompanyByEmail: async (email) => withCompany(byEmail(email)),
    findIdByEmail: async (email) => byEmail(email)?.id ?? null,
    async findEmails(userIds) {
      return new Map(userIds.flatMap((id) => (tables.users.has(id) ? [[id, tables.users.get(id)!.email]] : [])));
    },
    async findActivity(userId) {
      const user = tables.users.get(userId);
      return user ? { id: user.id, active: user.active } : null;
    },
    async replacePasswordHash(userId, stored, replacement) {
      if (tables.users.get(userId)?.passwordHash !== stored) return false;
      update(userId, { passwordHash: replacement });
      return true;
    },
    hasPasswordHashes: async (prefix) =>
      [...tables.users.values()].some((user) => user.passwordHash.startsWith(prefix)),
    savePreferredLanguage: async (userId, preferredLanguage) => update(userId, { preferredLanguage }),
    async save(user) {
      if (byEmail(user.email)) throw new Error("a user with this email exists already");
      if (!tables.companies.has(user.companyId)) throw new Error(`no company ${user.companyId}`);
      const now = new Date();
      const id = randomUUID();
      tables.users.set(
        id,
        copy({
          ...user,
          id,
          active: true,
          suspendedWithCompany: false,
          deactivatedByOperator: false,
          signedOutAt: null,
          preferredLanguage: null,
          lastSignInAt: null,
          createdAt: now,
          updatedAt: now,
        }),
      );
    },
  };
}
