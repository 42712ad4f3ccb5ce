// The bench's bare Next.js app (see app/connect/token/route.ts): the repository's checks cover its code.
export default { typescript: { ignoreBuildErrors: true } };
