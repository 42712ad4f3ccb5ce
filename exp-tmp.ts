import { parseDatabaseUrl } from "@/lib/config/database-url";
import { getPrismaClient } from "@/lib/db/prisma";
import { prepareBenchFixtures } from "./scripts/bench/fixtures";
import { addSuppliers } from "./scripts/bench/catalog-fixtures";
const target = parseDatabaseUrl("file:/tmp/exp/cat.db");
await prepareBenchFixtures(target, "ES256", 0, 0);
await addSuppliers(getPrismaClient(target), 500);
process.exit(0);
