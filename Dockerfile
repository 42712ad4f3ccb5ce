# OptiGate as a Node container. The build stage installs everything and runs `npm run bundle`; the image holds only
# that bundle (the traced Next.js standalone server, its minimal node_modules, the migrations, and the start script,
# migrate command and operator CLI compiled to JavaScript: the very files `npm start` runs), as the unprivileged
# `node` user, on Node.js 24 LTS.
#   docker build -t optigate .
#   docker run -p 3000:3000 -e SECRET_KEY=… -e PUBLIC_URL=https://id.example.com -e DATABASE_URL=postgresql://… optigate

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/generate-prisma-clients.mjs scripts/
COPY prisma prisma
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 NEXT_TELEMETRY_DISABLED=1
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run bundle

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 NEXT_TELEMETRY_DISABLED=1 DATABASE_URL=file:/app/data/optigate.db
# Sized for a container of 512 MiB: V8's heap stays under 256 MiB of old and 2 × 16 MiB of young objects, which leaves
# room for the code, SQLite's cache and the buffers of downloads. `npm run bench` runs OptiGate with this line.
# A larger container can raise both.
ENV NODE_OPTIONS="--max-old-space-size=256 --max-semi-space-size=16"
WORKDIR /app
COPY --from=build --chown=node:node /app/bundle ./
# The embedded SQLite database lives here (mount a volume); with PostgreSQL nothing is written to disk.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME /app/data
USER node
EXPOSE 3000
# Liveness only: a database outage must not get every container restarted (/api/health/ready is for load balancers).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# Migrations are applied at start, as with `npm start`, unless MIGRATE_ON_START=0; SIGTERM stops it gracefully.
CMD ["node", "serve.mjs"]
