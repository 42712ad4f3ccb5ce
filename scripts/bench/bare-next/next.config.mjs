// The bench's bare Next.js app (app/connect/token/route.ts): the repository's checks cover its code. The bench builds
// it in a temporary folder where node_modules and optigate/ (what "@/" names, tsconfig.json) link to the repository;
// Turbopack follows links within its root only.
export default { typescript: { ignoreBuildErrors: true }, turbopack: { root: "/" } };
