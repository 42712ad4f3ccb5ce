import { PHASE_PRODUCTION_BUILD } from "next/constants.js";
import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./lib/pages/next-intl-request.ts");

/** Pages must not be framed (clickjacking on login and consent) and must not leak URLs in the Referer. */
const securityHeaders = [
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Content-Type-Options", value: "nosniff" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // forbidden() answers the operator pages with a real 403 for everyone else.
  experimental: { authInterrupts: true },
  serverExternalPackages: [
    "better-sqlite3",
    "pg",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "pino",
    "prom-client",
    "nodemailer",
    // Loaded from node_modules, once per process: the API shared with Next.js's own spans; the SDK only when traces
    // are exported (instrumentation.ts).
    "@opentelemetry/api",
    "@opentelemetry/sdk-node",
    "@prisma/instrumentation",
  ],
  // Files the documentation pages read at run time: the standalone output (the container, Vercel) carries them too.
  outputFileTracingIncludes: {
    "/docs/api-reference.js": ["./node_modules/@scalar/api-reference/dist/browser/standalone.js"],
    "/docs/relying-parties": ["./docs/relying-parties.md"],
  },
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

/**
 * The build traces the standalone bundle (npm run bundle, the container); plain `next start` serves the same build
 * without that setting, which it would otherwise warn about at every start.
 */
export default (phase) =>
  withNextIntl(phase === PHASE_PRODUCTION_BUILD ? { ...nextConfig, output: "standalone" } : nextConfig);
