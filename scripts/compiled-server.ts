/**
 * Where `npm run build` writes the compiled start script, migrate command and operator CLI (scripts/compile-server.ts),
 * relative to the repository; `npm start`, the browser tests and the bench run that serve.mjs.
 */
export const COMPILED_FOLDER = ".next/optigate";
export const COMPILED_SERVER = `${COMPILED_FOLDER}/serve.mjs`;
