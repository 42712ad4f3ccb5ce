/**
 * What `import "server-only"` resolves to outside Next.js (tsconfig paths): the operator CLI, the lean front and the
 * tests all run on the server. Inside Next.js the import keeps its meaning, so a client component that imports the
 * data-access layer fails the build.
 */
export {};
