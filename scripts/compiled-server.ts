/**
 * Where `npm run build` writes the compiled start script, migrate command and operator CLI (scripts/compile-server.ts),
 * relative to the repository; `npm start`, the browser tests and the bench run that serve.mjs. Beside them, outside
 * the folder the bundle copies, the stamp of the sources built (scripts/build-stamp.ts).
 */
export const COMPILED_FOLDER = ".next/optigate";
export const COMPILED_SERVER = `${COMPILED_FOLDER}/serve.mjs`;
export const BUILD_STAMP = ".next/build-stamp.json";
