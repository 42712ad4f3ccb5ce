/** Who may use the operator pages: signed-in users of an operator company. */
import type { Db } from "@/lib/db/prisma";
import type { ActiveSession } from "@/lib/session/login-session";

export async function isOperator(db: Db, session: ActiveSession | null): Promise<boolean> {
  if (!session) return false;
  const company = await db.company.findUnique({ where: { id: session.user.companyId }, select: { kind: true } });
  return company?.kind === "operator";
}
