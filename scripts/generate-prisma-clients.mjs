// Generates the Prisma clients for both providers (run by `npm install` as postinstall).
// Prisma's CLI wants a schema engine binary even for `generate`, which does not use it; pointing
// PRISMA_SCHEMA_ENGINE_BINARY at any existing executable stops it from trying to download one.
import { execFileSync } from "node:child_process";
import path from "node:path";

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
for (const provider of ["sqlite", "postgresql"]) {
  execFileSync(process.execPath, [prisma, "generate", "--schema", `prisma/${provider}/schema.prisma`], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
    },
  });
}
