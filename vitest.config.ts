import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "lib/rights/node-server-only.ts"),
    },
  },
  test: {
    // Request lines would drown the test output; tests that read the log spy on the logger.
    env: { NODE_ENV: "test", LOG_LEVEL: "silent" },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          isolate: false,
          setupFiles: ["tests/helpers/fresh-test-file.ts"],
          globalSetup: ["tests/helpers/template-database.ts"],
          // Argon2id at 1 MiB instead of 19: tests about hashing itself switch back to the full cost.
          env: { PASSWORD_HASH_COST: "1024" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
