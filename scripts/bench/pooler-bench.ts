/**
 * The pooler part of `npm run bench`: what DATABASE_POOLER=transaction costs. On one PostgreSQL database three
 * OptiGate servers take turns per grant (client_credentials, refresh_token): straight on PostgreSQL with named
 * statements; straight on PostgreSQL with the setting, so unnamed statements (what the setting alone costs); and
 * through PgBouncer in transaction mode with the setting (what a deployment behind such a pooler pays). PgBouncer
 * gets as many server connections as OptiGate's pool, so that the pooler's hop is measured and not a smaller pool.
 */
import { DEFAULT_POOL_MAX, type DatabaseTarget } from "@/lib/config/database-url";
import { pgbouncerBinary, startPgBouncer } from "../pgbouncer";
import { freePort, result } from "./runner";
import { startOptiGate, takeTurns } from "./token-bench";

const DIRECT = "pooler: direct, named statements";
const UNNAMED = "pooler: direct, DATABASE_POOLER=transaction";
const PGBOUNCER = "pooler: PgBouncer, DATABASE_POOLER=transaction";
const GRANTS = ["client_credentials", "refresh_token"] as const;

/** The three servers on `direct`, a database of the server at `serverUrl`. */
export async function benchPooler(direct: DatabaseTarget, serverUrl: string): Promise<void> {
  if (!pgbouncerBinary()) {
    console.log("  pgbouncer not installed (apt-get install pgbouncer): skipped");
    return;
  }
  const bouncer = await startPgBouncer(serverUrl, await freePort(), DEFAULT_POOL_MAX);
  try {
    await takeTurns(
      [
        () => startOptiGate(direct, "ES256", DIRECT),
        () => startOptiGate({ provider: "postgresql", url: direct.url, pooler: "transaction" }, "ES256", UNNAMED),
        () =>
          startOptiGate(
            { provider: "postgresql", url: bouncer.through(direct.url), pooler: "transaction" },
            "ES256",
            PGBOUNCER,
          ),
      ],
      GRANTS,
    );
  } finally {
    await bouncer.stop();
  }
}

/** Each grant's rate with unnamed statements alone and through PgBouncer, beside the direct server's. */
export function reportPooler(): void {
  const lines = GRANTS.flatMap((grant) => {
    const [direct, unnamed, pooled] = [DIRECT, UNNAMED, PGBOUNCER].map((label) => result(`${label} ${grant}`));
    if (!direct || !unnamed || !pooled) return [];
    const ratio = (rps: number) => (rps / direct.rps).toFixed(2);
    return [
      `  ${grant.padEnd(20)} direct ${direct.rps} req/s (p99 ${direct.p99} ms); unnamed statements ${unnamed.rps} req/s, ratio ${ratio(unnamed.rps)}; through PgBouncer ${pooled.rps} req/s (p99 ${pooled.p99} ms), ratio ${ratio(pooled.rps)}`,
    ];
  });
  if (lines.length === 0) return;
  console.log(
    "\nbehind a transaction-mode pooler (ES256, one database, same run), each / direct with named statements:",
  );
  for (const line of lines) console.log(line);
}
